import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseBatchRequest } from '../../../../shared/mail-pipeline/batches/batch-request';
import golden from './fixtures/batch.golden.json';

/**
 * The schema-based batch parser answers as the hand-written one did: on 1,208 seeded bodies
 * (fixtures/batch-samples.ts), the same parsed input or the same 400 message, in the same order of
 * checks. The answers were recorded from the hand-written parser (fixtures/record-golden.ts) before
 * its conversion.
 */
describeGolden('POST /v1/send-batch', golden as GoldenCase[], ({ body }) => parseBatchRequest(body), { refusals: 30 });
