import { describeGolden, type GoldenCase } from '../../support/golden';
import { parsePageRequest } from '../../../../shared/platform/http/pagination';
import golden from './fixtures/page-request.golden.json';

/**
 * `page` and `per_page` are read as the hand-written parser read them: on every pair of 19 values
 * (fixtures/page-queries.ts), the same page request or the same 400 message. Recorded from the
 * hand-written parser (fixtures/record-golden.ts) before its conversion to a schema.
 */
describeGolden('page and per_page', golden as GoldenCase[], ({ query }) => parsePageRequest(query as Record<string, string>), { accepted: 40, refusals: 3 });
