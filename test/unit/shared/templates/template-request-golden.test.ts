import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseCreateTemplate, parseUpdateTemplate } from '../../../../shared/mail-pipeline/templates/template-request';
import createGolden from './fixtures/create-template.golden.json';
import updateGolden from './fixtures/update-template.golden.json';

/**
 * The schema-based template parsers answer as the hand-written ones did: on 506 seeded bodies each
 * (fixtures/template-samples.ts), the same parsed fields or the same 400 message, recorded from the
 * hand-written parsers (fixtures/record-golden.ts) before their conversion.
 */
describeGolden('POST /v1/templates', createGolden as GoldenCase[], ({ body }) => parseCreateTemplate(body));
describeGolden('PUT /v1/templates/{id}', updateGolden as GoldenCase[], ({ body }) => parseUpdateTemplate(body));
