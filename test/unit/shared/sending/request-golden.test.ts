import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseSendEmailRequest } from '../../../../shared/mail-pipeline/sending/send-email-request';
import { parseTemplateSendRequest } from '../../../../shared/mail-pipeline/sending/template-send-request';
import sendEmailGolden from './fixtures/send-email.golden.json';
import templateSendGolden from './fixtures/template-send.golden.json';
import registerDomainGolden from './fixtures/register-domain.golden.json';
import { parseRegisterRequest } from '../../../../shared/identities/domains/register-request';

/**
 * The schema-based parsers answer as the hand-written ones did: on 600 to 1,500 seeded bodies per
 * endpoint (fixtures/request-samples.ts), the same parsed input or the same 400 message, in the
 * same order of checks. The answers were recorded from the hand-written parsers
 * (fixtures/record-golden.ts) before their conversion.
 */
describeGolden('POST /v1/send-email', sendEmailGolden as GoldenCase[], ({ body }) => parseSendEmailRequest(body));
describeGolden('POST /v1/send-template-email', templateSendGolden as GoldenCase[], ({ body }) => parseTemplateSendRequest(body));
describeGolden('POST /domains/register', registerDomainGolden as GoldenCase[], ({ body }) => parseRegisterRequest(body));
