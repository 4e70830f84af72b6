import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseAdvancedSendRequest } from '../../../../shared/mail-pipeline/sending/advanced-send-request';
import golden from './fixtures/advanced-send.golden.json';

/**
 * The schema-based advanced-send parser answers as the hand-written one did: on 1,506 seeded
 * requests (fixtures/advanced-send-samples.ts: a body and its `x-source` header), the same parsed
 * input or the same 400 message, in the same order of checks. The answers were recorded from the
 * hand-written parser (test/unit/shared/batches/fixtures/record-golden.ts) before its conversion.
 */
describeGolden('POST /send-email', golden as GoldenCase[], ({ body, headers }) => parseAdvancedSendRequest(body, headers as Record<string, string>), { refusals: 40 });
