import { describeGolden, type GoldenCase } from '../../support/golden';
import * as leads from '../../../../shared/audience/leads/lead-input';
import * as events from '../../../../shared/audience/leads/custom-event';
import { routeOf } from '../../../../functions/route-table';
import type * as z from '../../../../shared/platform/core/zod';
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
import { parseAudienceFilter } from '../../../../shared/audience/leads/audience-filter';
import { parseSegmentCreate, parseSegmentUpdate, segmentCreateBodySchema, segmentUpdateBodySchema } from '../../../../shared/audience/leads/segment-request';

/**
 * The schema-based audience parsers answer as the hand-written ones did: on the seeded bodies and
 * queries of fixtures/request-samples.ts, the same parsed input or the same 400 message, in the same
 * order of checks. The answers were recorded from the hand-written parsers (fixtures/record-golden.ts)
 * before their conversion.
 */
const options = { accepted: 10, refusals: 3 };
const cases: [string, (value: never) => unknown, GoldenCase[]][] = [
  ['POST /v1/leads', leads.parseUpsertBody, upsertGolden as GoldenCase[]],
  ['PUT /v1/leads/{id}', leads.parseLeadUpdate, updateGolden as GoldenCase[]],
  ['POST /v1/leads/{id}/segments', leads.parseMembershipBody, membershipGolden as GoldenCase[]],
  ['POST and DELETE /v1/leads/{id}/tags', leads.parseTagsBody, tagsGolden as GoldenCase[]],
  ['POST /v1/leads/{id}/attributes', leads.parseAttributesBody, attributesGolden as GoldenCase[]],
  ['GET /v1/leads', leads.parseLeadListQuery, leadListGolden as GoldenCase[]],
  ['POST /v1/events', events.parseEventInput, eventGolden as GoldenCase[]],
  ['POST /v1/events/bulk', events.parseBulkEvents, bulkEventGolden as GoldenCase[]],
  ['GET /v1/events', events.parseEventListQuery, eventListGolden as GoldenCase[]],
  ['the audience filter (a segment\'s filter)', (value: unknown) => parseAudienceFilter(value), filterGolden as GoldenCase[]],
  ['the audience filter (a campaign\'s recipientFilter)', (value: unknown) => parseAudienceFilter(value, 'recipientFilter'), recipientFilterGolden as GoldenCase[]],
  ['POST /v1/segments', parseSegmentCreate, segmentCreateGolden as GoldenCase[]],
  ['PATCH /v1/segments/{id}', parseSegmentUpdate, segmentUpdateGolden as GoldenCase[]],
];
for (const [route, parse, golden] of cases) describeGolden(route, golden, ({ body }) => parse(body as never), options);

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
    expect(routeOf(key)).toMatchObject({ body: schema });
  });

  it.each([
    ['GET /v1/leads', leads.leadListQuerySchema],
    ['GET /v1/events', events.eventListQuerySchema],
  ])('%s: its query holds every filter the parser reads', (key, schema) => {
    expect(Object.keys((routeOf(key)!.query as z.ZodMiniObject).shape)).toEqual(expect.arrayContaining(Object.keys(schema.shape)));
  });
});
