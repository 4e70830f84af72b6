import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseBatchReschedule } from '../../../../shared/mail-pipeline/batches/batch-reschedule-request';
import { parseRescheduleRequest } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-request';
import batchGolden from './fixtures/batch-reschedule.golden.json';
import scheduledGolden from './fixtures/scheduled-send-reschedule.golden.json';
import { GOLDEN_NOW } from './fixtures/reschedule-samples';

/**
 * The schema-based reschedule parsers answer as the hand-written ones did: on 406 seeded bodies
 * (fixtures/reschedule-samples.ts), the same parsed input or the same refusal (status, message,
 * code and extra fields), recorded from the hand-written parsers (fixtures/record-golden.ts)
 * before their conversion.
 */
const keep = ['status', 'code', 'extra'] as const;
describeGolden('PATCH /v1/scheduled-sends/{id}', scheduledGolden as GoldenCase[], ({ body }) => parseRescheduleRequest(body, GOLDEN_NOW), { keep, refusals: 3 });
describeGolden('PATCH /v1/send-batch/{batchId}', batchGolden as GoldenCase[], ({ body }) => parseBatchReschedule(body), { keep, refusals: 1 });
