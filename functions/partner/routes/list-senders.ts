import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { partnerSenderListSchema } from '../../../shared/tenancy/partner/partner-answers';
import { listPartnerSenders } from '../../../shared/tenancy/partner/partner-senders';
import { ownedProject, PROJECT_NOT_FOUND } from './owned-project';
import { partnerReadAccess } from './partner-access';
import { senderExample } from './partner-examples';

/** `GET /v1/partner/projects/{projectId}/senders` (4.13): the project's senders, each with `sender_source`. */
export const listSenders = defineRoute({
  method: 'GET',
  path: '/v1/partner/projects/{projectId}/senders',
  auth: 'partner',
  summary: 'The project\'s senders',
  answers: {
    200: json(partnerSenderListSchema, 'The senders', { senders: [senderExample] }),
    ...errors('partner', { 404: PROJECT_NOT_FOUND }),
  },
  access: partnerReadAccess,
  handle: async (request) => ({ status: 200, body: await listPartnerSenders(services(), await ownedProject(request)) }),
});
