import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseSubdomainRequest } from '../../../../shared/identities/domains/subdomain-request';
import { parseVerifyEmailRequest } from '../../../../shared/identities/domains/verify-email-request';
import subdomainGolden from './fixtures/subdomain.golden.json';
import verifyEmailGolden from './fixtures/verify-email.golden.json';

/**
 * The reply/tracking and verify-email parsers answer as the hand-written ones did on the seeded
 * bodies of fixtures/request-samples.ts: the same parsed input, or the same message with the same
 * status and code. Recorded before their conversion to schemas (fixtures/record-golden.ts).
 */
const options = { keep: ['status', 'code'], accepted: 50, refusals: 3 } as const;
describeGolden('POST /domains/reply', subdomainGolden as GoldenCase[], ({ body }) => parseSubdomainRequest(body), options);
describeGolden('POST /domains/tracking', subdomainGolden as GoldenCase[], ({ body }) => parseSubdomainRequest(body), options);
describeGolden('POST /domains/verify-email', verifyEmailGolden as GoldenCase[], ({ body }) => parseVerifyEmailRequest(body), options);
