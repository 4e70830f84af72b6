import { AppError } from '../../../../shared/platform/core/errors';
import { parseCampaignRequest, startInstant } from '../../../../shared/marketing/campaigns/campaign-request';

const TEMPLATE = '11111111-1111-4111-8111-111111111111';
const SENDER = '22222222-2222-4222-8222-222222222222';
const LEAD_A = '33333333-3333-4333-8333-333333333333';
const LEAD_B = '44444444-4444-4444-8444-444444444444';
const valid = { name: 'Spring sale', templateId: TEMPLATE, senderProfileId: SENDER, recipientIds: [LEAD_A] };

/** The 400 message a body is refused with. */
function refusal(body: unknown): string {
  try {
    parseCampaignRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('the body was accepted');
}

describe('POST /v1/campaigns body: part 7 messages, in part 7 order', () => {
  it.each([
    ['no body', undefined],
    ['no name', { templateId: TEMPLATE, senderProfileId: SENDER }],
    ['an empty name', { ...valid, name: '  ' }],
    ['no template', { name: 'x', senderProfileId: SENDER }],
    ['no sender profile', { name: 'x', templateId: TEMPLATE }],
    ['a name that is not a string, before any other fault', { name: 5, templateId: TEMPLATE, senderProfileId: SENDER, scheduledFor: 5 }],
  ])('%s: Missing required fields: name, templateId, senderProfileId', (_why, body) => {
    expect(refusal(body)).toBe('Missing required fields: name, templateId, senderProfileId');
  });

  it('templateInternalId stands in for templateId', () => {
    expect(parseCampaignRequest({ ...valid, templateId: undefined, templateInternalId: '7' }).template).toEqual({ kind: 'internal', internalId: 7 });
    expect(parseCampaignRequest({ ...valid, templateId: undefined, templateInternalId: 7 }).template).toEqual({ kind: 'internal', internalId: 7 });
  });

  it.each([
    ['absent', { name: 'x', templateId: TEMPLATE, senderProfileId: SENDER }],
    ['empty', { ...valid, recipientIds: [] }],
    ['absent with selectAllRecipients: false', { ...valid, recipientIds: undefined, selectAllRecipients: false, scheduledFor: 12 }],
  ])('recipientIds %s: recipientIds is required when selectAllRecipients is false', (_why, body) => {
    expect(refusal(body)).toBe('recipientIds is required when selectAllRecipients is false');
  });

  it('selectAllRecipients without recipientCount: recipientCount is required when selectAllRecipients is true', () => {
    expect(refusal({ name: 'x', templateId: TEMPLATE, senderProfileId: SENDER, selectAllRecipients: true, scheduledFor: 12 })).toBe('recipientCount is required when selectAllRecipients is true');
  });

  it.each([12, true, {}, 'tomorrow', '2030-01-01', '2030-01-01T10:00:00'])('scheduledFor %p: scheduledFor must be a string (ISO timestamp)', (scheduledFor) => {
    expect(refusal({ ...valid, scheduledFor })).toBe('scheduledFor must be a string (ISO timestamp)');
  });
});

describe('POST /v1/campaigns body: the audience', () => {
  it('recipientIds are lead uuids, deduplicated case-insensitively, in first order', () => {
    const request = parseCampaignRequest({ ...valid, recipientIds: [LEAD_B, LEAD_A, LEAD_B.toUpperCase()] });
    expect(request.audience).toEqual({ kind: 'ids', ids: [LEAD_B, LEAD_A] });
  });

  it('a recipient id that is not a uuid is named', () => {
    expect(refusal({ ...valid, recipientIds: [LEAD_A, 'someone@example.com'] })).toBe('recipientIds[1] must be a lead id (uuid)');
    expect(refusal({ ...valid, recipientIds: 'abc' })).toBe('recipientIds must be an array of lead ids (uuids)');
  });

  it('selectAllRecipients takes the expected count and an optional recipientFilter in the audience filter language', () => {
    const request = parseCampaignRequest({ ...valid, recipientIds: undefined, selectAllRecipients: true, recipientCount: 1200, recipientFilter: { conditions: [{ tags: { any: ['vip'] } }] } });
    expect(request.audience).toEqual({ kind: 'all', filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }] } });
    expect(request.recipientCount).toBe(1200);
  });

  it("recipientFilter's faults are the filter parser's own, under its name; it needs selectAllRecipients", () => {
    expect(refusal({ ...valid, recipientIds: undefined, selectAllRecipients: true, recipientCount: 1, recipientFilter: { conditions: [{ attribute: 'plan', op: 'like' }] } })).toMatch(
      /^recipientFilter\.conditions\[0\]\.op must be one of/,
    );
    expect(refusal({ ...valid, recipientFilter: { conditions: [{ tags: { any: ['vip'] } }] } })).toBe('recipientFilter is only allowed with selectAllRecipients: true');
  });

  it('a segment or a follow-up is an audience of its own and needs no recipientIds', () => {
    expect(parseCampaignRequest({ ...valid, recipientIds: undefined, segmentId: LEAD_A }).audience).toEqual({ kind: 'segment', segmentId: LEAD_A });
    expect(parseCampaignRequest({ ...valid, recipientIds: undefined, followUp: { campaignId: LEAD_B, audience: 'not_opened' } }).audience).toEqual({
      kind: 'follow_up',
      campaignId: LEAD_B,
      audience: 'not_opened',
    });
    expect(refusal({ ...valid, recipientIds: undefined, followUp: { campaignId: LEAD_B, audience: 'opened' } })).toBe('followUp.audience must be "not_delivered" or "not_opened"');
    expect(refusal({ ...valid, segmentId: LEAD_B })).toBe('Give one audience: recipientIds, selectAllRecipients: true, segmentId or followUp');
  });

  it('recipientCount is a whole number up to 10 million', () => {
    expect(refusal({ ...valid, recipientIds: undefined, selectAllRecipients: true, recipientCount: 10_000_001 })).toBe('recipientCount must be a whole number from 0 to 10000000');
    expect(refusal({ ...valid, recipientIds: undefined, selectAllRecipients: true, recipientCount: 1.5 })).toBe('recipientCount must be a whole number from 0 to 10000000');
  });
});

describe('POST /v1/campaigns body: start and pacing', () => {
  const now = new Date('2026-11-24T10:00:00.000Z');

  it('scheduleType defaults to scheduled: at scheduledFor, or at once', () => {
    expect(parseCampaignRequest(valid).start).toEqual({ kind: 'now' });
    const at = parseCampaignRequest({ ...valid, scheduledFor: '2026-11-24T12:00:00+01:00' }).start;
    expect(startInstant(at, now)?.toISOString()).toBe('2026-11-24T11:00:00.000Z');
  });

  it('a scheduledFor in the past: scheduledFor must be in the future', () => {
    const start = parseCampaignRequest({ ...valid, scheduledFor: '2026-11-24T09:59:59Z' }).start;
    expect(() => startInstant(start, now)).toThrow('scheduledFor must be in the future');
  });

  it.each([
    [30, 'minutes', '2026-11-24T10:30:00.000Z'],
    [2, 'hours', '2026-11-24T12:00:00.000Z'],
    [1.5, 'days', '2026-11-25T22:00:00.000Z'],
  ])('scheduleType delay: %p %s from now', (delayAmount, delayUnit, expected) => {
    const start = parseCampaignRequest({ ...valid, scheduleType: 'delay', delayAmount, delayUnit }).start;
    expect(startInstant(start, now)?.toISOString()).toBe(expected);
  });

  it.each([
    [{ scheduleType: 'soon' }, 'scheduleType must be "scheduled" or "delay"'],
    [{ scheduleType: 'delay', delayUnit: 'hours' }, 'delayAmount must be a positive number with scheduleType "delay"'],
    [{ scheduleType: 'delay', delayAmount: 0, delayUnit: 'hours' }, 'delayAmount must be a positive number with scheduleType "delay"'],
    [{ scheduleType: 'delay', delayAmount: 2, delayUnit: 'weeks' }, 'delayUnit must be "minutes", "hours" or "days" with scheduleType "delay"'],
    [{ delayAmount: 2, delayUnit: 'hours' }, 'delayAmount and delayUnit need scheduleType "delay"'],
    [{ scheduleType: 'delay', delayAmount: 2, delayUnit: 'hours', scheduledFor: '2030-01-01T00:00:00Z' }, 'scheduledFor is not allowed with scheduleType "delay"'],
    [{ batchMode: true }, 'batchSize is required when batchMode is true'],
    [{ batchSize: 100 }, 'batchSize needs batchMode: true'],
    [{ batchMode: true, batchSize: 0 }, 'batchSize must be a whole number from 1 to 10000000'],
    [{ batchMode: true, batchSize: 10, batchIntervalHours: 0.1 }, 'batchIntervalHours must be a number of hours from 0.25 to 720'],
    [{ sendOverHours: 721 }, 'sendOverHours must be a number of hours from 0.25 to 720'],
    [{ batchMode: true, batchSize: 10, sendOverHours: 5 }, 'sendOverHours cannot be combined with batchMode'],
    [{ confirmDuplicate: 'yes' }, 'confirmDuplicate must be true or false'],
  ])('%p is refused: %s', (extra, message) => {
    expect(refusal({ ...valid, ...extra })).toBe(message);
  });

  it('a delayed start beyond 365 days is refused', () => {
    const start = parseCampaignRequest({ ...valid, scheduleType: 'delay', delayAmount: 400, delayUnit: 'days' }).start;
    expect(() => startInstant(start, now)).toThrow('The campaign must start within 365 days');
  });

  it('batchIntervalHours defaults to 24', () => {
    expect(parseCampaignRequest({ ...valid, batchMode: true, batchSize: 500 })).toMatchObject({ batchMode: true, batchSize: 500, batchIntervalHours: 24 });
  });
});

describe('POST /v1/campaigns body: variableConfig', () => {
  it('keeps defaults (scalars) and mappings (template variable -> lead field)', () => {
    const request = parseCampaignRequest({ ...valid, variableConfig: { defaults: { first_name: 'friend', count: 3 }, mappings: { first_name: 'name', plan: 'plan' } } });
    expect(request.variableConfig).toEqual({ defaults: { first_name: 'friend', count: 3 }, mappings: { first_name: 'name', plan: 'plan' } });
  });

  it.each([
    [[], 'variableConfig must be an object {defaults, mappings}'],
    [{ defaults: 'x' }, 'variableConfig.defaults must be an object'],
    [{ defaults: { a: { deep: 1 } } }, 'variableConfig.defaults.a must be a string, number or boolean'],
    [{ mappings: { a: 5 } }, "variableConfig.mappings.a must name a lead field: email, name or a key of the lead's data"],
  ])('%p is refused', (variableConfig, message) => {
    expect(refusal({ ...valid, variableConfig })).toBe(message);
  });
});
