import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseCreateProject, parseDomainOnboarding, parseProjectPatch, parseSenderCreation } from '../../../../shared/tenancy/partner/project-request';
import createGolden from './fixtures/project-create.golden.json';
import patchGolden from './fixtures/project-patch.golden.json';
import domainGolden from './fixtures/domain-onboarding.golden.json';
import senderGolden from './fixtures/sender-creation.golden.json';

/**
 * The partner parsers answer as the hand-written ones did on the seeded bodies of
 * fixtures/request-samples.ts: the same parsed input, or the same message with the same status and
 * code (partner bodies echo it as `code` and `error_code`). Recorded before their conversion to
 * schemas (fixtures/record-golden.ts), so that the conversion is held to them.
 */
const options = { keep: ['status', 'code'], accepted: 50, refusals: 3 } as const;
describeGolden('POST /v1/partner/projects', createGolden as GoldenCase[], ({ body }) => parseCreateProject(body), options);
describeGolden('PATCH /v1/partner/projects/{id}', patchGolden as GoldenCase[], ({ body }) => parseProjectPatch(body), options);
describeGolden('POST /v1/partner/projects/{id}/domains', domainGolden as GoldenCase[], ({ body }) => parseDomainOnboarding(body), options);
describeGolden('POST /v1/partner/projects/{id}/senders', senderGolden as GoldenCase[], ({ body }) => parseSenderCreation(body), options);
