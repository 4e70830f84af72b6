import * as leads from '../../../../shared/audience/lead-input';
import * as events from '../../../../shared/audience/custom-event';
import { schemasOf } from '../../../../shared/openapi/api-schemas';
import upsertGolden from './fixtures/lead-upsert.golden.json';
import updateGolden from './fixtures/lead-update.golden.json';
import membershipGolden from './fixtures/lead-membership.golden.json';
import tagsGolden from './fixtures/lead-tags.golden.json';
import attributesGolden from './fixtures/lead-attributes.golden.json';
import leadListGolden from './fixtures/lead-list-query.golden.json';
import eventGolden from './fixtures/event.golden.json';
import bulkEventGolden from './fixtures/event-bulk.golden.json';
import eventListGolden from './fixtures/event-list-query.golden.json';
import filterGolden from './fixtures/audience-filter.golden.json';
import recipientFilterGolden from './fixtures/campaign-recipient-filter.golden.json';
import segmentCreateGolden from './fixtures/segment-create.golden.json';
import segmentUpdateGolden from './fixtures/segment-update.golden.json';
import { parseAudienceFilter } from '../../../../shared/audience/audience-filter';
import { parseSegmentCreate, parseSegmentUpdate, segmentCreateBodySchema, segmentUpdateBodySchema } from '../../../../shared/audience/segment-request';

/**
 * The schema-based audience parsers answer as the hand-written ones did: on the seeded bodies and
 * queries of fixtures/request-samples.ts, the same parsed input or the same 400 message, in the same
 * order of checks. The answers were recorded from the hand-written parsers (fixtures/record-golden.ts)
 * before their conversion.
 */
type Golden = { body?: unknown; ok?: unknown; error?: string }[];

const answer = (parse: (body: never) => unknown, body: unknown) => {
  try {
    return { ok: JSON.parse(JSON.stringify(parse(body as never))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe.each([
  ['POST /v1/leads', leads.parseUpsertBody, upsertGolden as Golden],
  ['PUT /v1/leads/{id}', leads.parseLeadUpdate, updateGolden as Golden],
  ['POST /v1/leads/{id}/segments', leads.parseMembershipBody, membershipGolden as Golden],
  ['POST and DELETE /v1/leads/{id}/tags', leads.parseTagsBody, tagsGolden as Golden],
  ['POST /v1/leads/{id}/attributes', leads.parseAttributesBody, attributesGolden as Golden],
  ['GET /v1/leads', leads.parseLeadListQuery, leadListGolden as Golden],
  ['POST /v1/events', events.parseEventInput, eventGolden as Golden],
  ['POST /v1/events/bulk', events.parseBulkEvents, bulkEventGolden as Golden],
  ['GET /v1/events', events.parseEventListQuery, eventListGolden as Golden],
  ['the audience filter (a segment\'s filter)', (value: unknown) => parseAudienceFilter(value), filterGolden as Golden],
  ['the audience filter (a campaign\'s recipientFilter)', (value: unknown) => parseAudienceFilter(value, 'recipientFilter'), recipientFilterGolden as Golden],
  ['POST /v1/segments', parseSegmentCreate, segmentCreateGolden as Golden],
  ['PATCH /v1/segments/{id}', parseSegmentUpdate, segmentUpdateGolden as Golden],
] as const)('%s: answers as the hand-written parser did', (_route, parse, golden) => {
  it('gives the same input or the same message on every recorded body', () => {
    const differing = golden.filter(({ body, ...expected }) => JSON.stringify(answer(parse, body)) !== JSON.stringify(expected));
    expect(differing.slice(0, 3).map(({ body, ...expected }) => ({ body: JSON.stringify(body)?.slice(0, 300), expected, got: answer(parse, body) }))).toEqual([]);
  });

  it('records both accepted and refused bodies', () => {
    expect(golden.filter((g) => 'ok' in g).length).toBeGreaterThan(10);
    expect(new Set(golden.map((g) => g.error)).size).toBeGreaterThan(3);
  });
});

describe('the registry describes the audience routes with the schemas their parsers validate with', () => {
  it.each([
    ['POST /v1/leads', leads.leadUpsertBodySchema],
    ['PUT /v1/leads/{id}', leads.leadUpdateBodySchema],
    ['POST /v1/leads/{id}/segments', leads.membershipBodySchema],
    ['POST /v1/leads/{id}/tags', leads.tagsBodySchema],
    ['DELETE /v1/leads/{id}/tags', leads.tagsBodySchema],
    ['POST /v1/leads/{id}/attributes', leads.attributesBodySchema],
    ['POST /v1/events', events.eventBodySchema],
    ['POST /v1/events/bulk', events.bulkEventsBodySchema],
    ['POST /v1/segments', segmentCreateBodySchema],
    ['PATCH /v1/segments/{id}', segmentUpdateBodySchema],
  ])('%s', (key, schema) => {
    expect(schemasOf(key)).toMatchObject({ body: schema, validates: true });
  });

  it.each([
    ['GET /v1/leads', leads.leadListQuerySchema],
    ['GET /v1/events', events.eventListQuerySchema],
  ])('%s: its query holds every filter the parser reads', (key, schema) => {
    expect(Object.keys(schemasOf(key)!.query!.shape)).toEqual(expect.arrayContaining(Object.keys(schema.shape)));
  });
});
