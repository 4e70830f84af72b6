import { services } from '../../../composition/services';
import { senderListSchema } from '../../../shared/identities/domains/sender-answers';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { listPartnerSenders } from '../../../shared/tenancy/partner/partner-senders';
import { readDomains } from './identity-view';

/** `GET /domains/senders`: the project's own senders (what a campaign's `senderProfileId` names), as the partner list shows them. */
export const listSendersRoute = defineRoute({
  method: 'GET',
  path: '/domains/senders',
  auth: 'project',
  summary: 'The project\'s senders',
  description: 'Every sender profile of the project, each with its id (a campaign\'s `senderProfileId`), `sender_source` and whether it `can_send`. Not paged: a project has a handful.',
  answers: {
    200: json(senderListSchema, 'The senders', {
      success: true,
      data: [
        {
          id: '4e1f6a3c-9d5b-4e0a-8c3f-7a8b9c0d1e2f',
          from_name: 'Example News',
          from_email: 'news@mail.example.com',
          domain_authenticated: true,
          sender_source: 'manual',
          can_send: true,
          email_verified: true,
          created_at: '2026-11-20T10:15:00.000Z',
        },
      ],
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const { senders } = await listPartnerSenders(services(), request.caller.project);
    return { status: 200, body: { success: true, data: senders } };
  },
});
