import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseAddSuppressions, parseEmails, parseReasonFilter } from '../../../../shared/mail-pipeline/suppression/suppression-request';
import addGolden from './fixtures/add-suppressions.golden.json';
import removeGolden from './fixtures/remove-suppressions.golden.json';
import reasonGolden from './fixtures/reason-filter.golden.json';

/**
 * The schema-based suppression parsers answer as the hand-written ones did: on 506 seeded bodies
 * (fixtures/suppression-samples.ts) and 10 `reason` filters, the same parsed input or the same 400
 * message, recorded from the hand-written parsers (fixtures/record-golden.ts) before their conversion.
 */
describeGolden('POST /v1/suppressions', addGolden as GoldenCase[], ({ body }) => parseAddSuppressions(body), { refusals: 1 });
describeGolden('POST /v1/suppressions/remove', removeGolden as GoldenCase[], ({ body }) => parseEmails(body), { refusals: 1 });
describeGolden('GET /v1/suppressions?reason=', reasonGolden as GoldenCase[], ({ body }) => parseReasonFilter(body as string | undefined), { accepted: 5, refusals: 1 });
