import { groupRoutes } from '../../../shared/platform/http/route';
import { createProject } from './create-project';
import { createSender } from './create-sender';
import { disableProject } from './disable-project';
import { partnerDomainDmarc } from './domain-dmarc';
import { getDomain } from './get-domain';
import { getProject } from './get-project';
import { getStats } from './get-stats';
import { listDomains } from './list-domains';
import { listProjects } from './list-projects';
import { listSenders } from './list-senders';
import { onboardDomainRoute } from './onboard-domain';
import { provisionSesTenant } from './provision-ses-tenant';
import { reactivateProject } from './reactivate-project';
import { resumeMarketing } from './resume-marketing';
import { rotateKey } from './rotate-key';
import { updateProject } from './update-project';
import { verifyDomain } from './verify-domain';
import { whoAmI } from './whoami';

/** Endpoint group `partner`: provisioning and configuring client projects with a partner key (4.13). */
export const partnerRoutes = groupRoutes('partner', [
  createProject,
  listProjects,
  getProject,
  updateProject,
  disableProject,
  reactivateProject,
  resumeMarketing,
  provisionSesTenant,
  onboardDomainRoute,
  listDomains,
  getDomain,
  partnerDomainDmarc,
  verifyDomain,
  listSenders,
  createSender,
  rotateKey,
  getStats,
  whoAmI,
]);
