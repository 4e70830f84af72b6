import { describeGolden, type GoldenCase } from '../../support/golden';
import { parseCampaignRequest } from '../../../../shared/marketing/campaigns/campaign-request';
import golden from './fixtures/campaign-request.golden.json';

/**
 * `POST /v1/campaigns` answers as its hand-written parser did: on 2,130 seeded bodies
 * (fixtures/campaign-samples.ts), the same parsed request or the same 400 message, part 7's four
 * first and in part 7's order. Recorded from the hand-written parser (fixtures/record-golden.ts)
 * before its conversion to a schema.
 */
describeGolden('POST /v1/campaigns', golden as GoldenCase[], ({ body }) => parseCampaignRequest(body), { accepted: 200, refusals: 40 });
