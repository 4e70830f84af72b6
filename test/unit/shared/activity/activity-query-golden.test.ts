import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseActivityFilters } from '../../../../shared/mail-pipeline/activity/activity-list';
import golden from './fixtures/activity-query.golden.json';

/**
 * The schema-based filter parser of `GET /v1/activity` answers as the hand-written one did: on 501
 * seeded query strings (fixtures/activity-query-samples.ts), the same filters or the same refusal
 * (status, message, code and extra fields), recorded (fixtures/record-golden.ts) before its conversion.
 */
describeGolden('GET /v1/activity query', golden as GoldenCase[], ({ query }) => parseActivityFilters(query as Record<string, string>), { keep: ['status', 'code', 'extra'] });
