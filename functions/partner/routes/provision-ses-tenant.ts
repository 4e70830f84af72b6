import { services } from '../../../composition/services';
import { projectTenantExample, projectTenantSchema, provisionProjectTenant } from '../../../shared/identities/tenants/provision-tenant';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { ownedProject, PROJECT_NOT_FOUND, UNREAD_BODY_REFUSED } from './owned-project';
import { sesTenantAccess } from './partner-access';

/** `POST /v1/partner/projects/{projectId}/ses-tenant`: puts the project on its own SES tenant (idempotent). */
export const provisionSesTenant = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/ses-tenant',
  auth: 'partner',
  summary: 'Put a project on its own SES tenant',
  description:
    'Gives the project its own reputation at SES: one client\'s bounces and complaints no longer weigh on the others\', and SES can pause this tenant alone. ' +
    'Creates the tenant `mr-<project id>`, associates the project\'s identities and the configuration set, then records it: from then on every send of the project names it, and new domains and senders are associated as they are registered. ' +
    'Off by default: AWS bills each tenant every month (docs/deliverability.md). Calling it again completes an interrupted provisioning and changes nothing once done.',
  answers: {
    200: json(projectTenantSchema, 'The project is on its own tenant', projectTenantExample),
    ...errors('partner', { 400: UNREAD_BODY_REFUSED, 404: PROJECT_NOT_FOUND }),
  },
  access: sesTenantAccess,
  handle: async (request) => ({ status: 200, body: await provisionProjectTenant(services(), await ownedProject(request)) }),
});
