import { AppError } from '../../../../shared/platform/core/errors';
import { leftOutQuerySchema, recipientOutcomesQuerySchema } from '../../../../shared/marketing/campaign-reports/campaign-report';
import { campaignBodySchema, parseCampaignRequest, toCampaignRequest } from '../../../../shared/marketing/campaigns/campaign-request';
import { campaignListQuerySchema } from '../../../../shared/marketing/campaigns/read-campaigns';
import { parseRequest } from '../../../../shared/platform/core/validate';
import type * as z from '../../../../shared/platform/core/zod';

/** The 400 message a query (or body) is refused with by its route's schema, as the API handler checks it. */
function refusal(schema: z.ZodMiniType, value: unknown): string {
  try {
    parseRequest(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('the value was accepted');
}

const STATES = 'initializing, pending, processing, rate_limited, paused, completed, failed, cancelled';
const ACTIVITY = 'queued, retrying, sent, delivered, bounced, complained, failed, suppressed, cancelled';

describe('GET /v1/campaigns query: the page first, then status', () => {
  it('takes the page, an empty or known status and a cursor, and keeps them', () => {
    expect(parseRequest(campaignListQuerySchema, { page: '2', per_page: '20', status: 'paused' })).toEqual({ page: '2', per_page: '20', status: 'paused' });
    expect(parseRequest(campaignListQuerySchema, { status: '', cursor: 'abc' })).toEqual({ status: '', cursor: 'abc' });
  });

  it('refuses an unknown status with the list of states', () => {
    expect(refusal(campaignListQuerySchema, { status: 'done' })).toBe(`status must be one of ${STATES}`);
  });

  it('names a bad page before a bad status', () => {
    expect(refusal(campaignListQuerySchema, { status: 'done', per_page: '201' })).toBe('per_page must be between 1 and 200');
    expect(refusal(campaignListQuerySchema, { status: 'done', page: '0' })).toBe('page must be a positive integer');
  });
});

describe('GET /v1/campaigns/{id}/recipients query', () => {
  it('refuses a status that is no activity status, after the page', () => {
    expect(refusal(recipientOutcomesQuerySchema, { status: 'opened' })).toBe(`status must be one of ${ACTIVITY}`);
    expect(refusal(recipientOutcomesQuerySchema, { status: 'opened', per_page: 'x' })).toBe('per_page must be a positive integer');
  });

  it('keeps the cursor for the report to read on from', () => {
    expect(parseRequest(recipientOutcomesQuerySchema, { status: 'delivered', cursor: 'c1' })).toEqual({ status: 'delivered', cursor: 'c1' });
  });
});

describe('GET /v1/campaigns/{id}/left-out query', () => {
  it('refuses an unknown reason, after the page', () => {
    expect(refusal(leftOutQuerySchema, { reason: 'bounced' })).toBe('reason must be one of suppressed, unsubscribed, invalid');
    expect(refusal(leftOutQuerySchema, { reason: 'bounced', page: '-1' })).toBe('page must be a positive integer');
  });
});

describe('POST /v1/campaigns body as the route takes it (toCampaignRequest of the parsed body)', () => {
  const body = {
    name: '  Spring sale ',
    templateId: ' 11111111-1111-4111-8111-111111111111 ',
    senderProfileId: '22222222-2222-4222-8222-222222222222',
    recipientIds: ['33333333-3333-4333-8333-333333333333'],
  };

  it('maps the parsed body as parseCampaignRequest does', () => {
    expect(toCampaignRequest(parseRequest(campaignBodySchema, body))).toEqual(parseCampaignRequest(body));
  });

  it('refuses a missing body with part 7\'s first message, as parseCampaignRequest refuses an empty one', () => {
    expect(refusal(campaignBodySchema, undefined)).toBe('Missing required fields: name, templateId, senderProfileId');
    expect(refusal(campaignBodySchema, [])).toBe('Missing required fields: name, templateId, senderProfileId');
  });
});
