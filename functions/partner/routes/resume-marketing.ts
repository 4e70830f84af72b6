import { services } from '../../../composition/services';
import { marketingResumedSchema, reputationExamples } from '../../../shared/identities/reputation/reputation-answers';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { resumePartnerMarketing } from '../../../shared/tenancy/partner/partner-projects';
import { ownedProject, PROJECT_NOT_FOUND, UNREAD_BODY_REFUSED } from './owned-project';
import { marketingResumeAccess } from './partner-access';

/** `POST /v1/partner/projects/{projectId}/marketing/resume`: an operator resumes the marketing mail the reputation watch paused. */
export const resumeMarketing = defineRoute({
  method: 'POST',
  path: '/v1/partner/projects/{projectId}/marketing/resume',
  auth: 'partner',
  summary: 'Resume a project\'s paused marketing mail',
  description:
    'The reputation watch pauses a project\'s marketing mail (campaigns, marketing batches, automations\' marketing sends) when its permanent-bounce or complaint rate passes the warning level; ' +
    'this resumes it: campaigns that paused with the project run again, held automation sends go out within 15 minutes, and the watch measures from now on. Idempotent.',
  answers: {
    200: json(marketingResumedSchema, 'Marketing runs again', reputationExamples.resumed),
    ...errors('partner', { 400: UNREAD_BODY_REFUSED, 404: PROJECT_NOT_FOUND }),
  },
  access: marketingResumeAccess,
  handle: async (request) => ({ status: 200, body: await resumePartnerMarketing(services(), await ownedProject(request)) }),
});
