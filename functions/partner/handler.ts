import type { PartnerCaller } from '../../shared/auth/authenticate';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { publicBaseUrl, type ApiRequest } from '../../shared/http/api-types';
import { domainParam } from '../../shared/http/path-params';
import { listDomainSummaries, onboardDomain, readDomainPack, verifyDomainPack } from '../../shared/partner/partner-domains';
import {
  createPartnerProject,
  disablePartnerProject,
  listPartnerProjects,
  patchPartnerProject,
  projectOverview,
  projectStats,
  reactivatePartnerProject,
  requireOwnedProject,
  rotatePartnerKey,
  whoAmI,
} from '../../shared/partner/partner-projects';
import { createPartnerSender, listPartnerSenders } from '../../shared/partner/partner-senders';
import { parseCreateProject, parseDomainOnboarding, parseProjectPatch, parseSenderCreation } from '../../shared/partner/project-request';

const caller = (request: ApiRequest) => request.caller as PartnerCaller;
/** The project named in the path, if it is the caller's (404 NOT_FOUND otherwise). */
const owned = (request: ApiRequest) => requireOwnedProject(services(), caller(request), request.params.projectId ?? '');
const ok = (body: unknown, status = 200) => ({ status, body });

/** Endpoint group `partner`: provisioning and configuring client projects with a partner key. */
export const handler = apiHandler('partner', {
  'POST /v1/partner/projects': async (request) =>
    createPartnerProject(services(), caller(request), parseCreateProject(request.body), publicBaseUrl(request)),

  'GET /v1/partner/projects': async (request) => ok(await listPartnerProjects(services(), caller(request))),

  'GET /v1/partner/projects/{projectId}': async (request) => ok(await projectOverview(services(), await owned(request))),

  'PATCH /v1/partner/projects/{projectId}': async (request) => {
    const project = await owned(request);
    return ok(await patchPartnerProject(services(), project, parseProjectPatch(request.body)));
  },

  'DELETE /v1/partner/projects/{projectId}': async (request) => ok(await disablePartnerProject(services(), await owned(request))),

  'POST /v1/partner/projects/{projectId}/reactivate': async (request) => ok(await reactivatePartnerProject(services(), await owned(request))),

  'POST /v1/partner/projects/{projectId}/domains': async (request) => {
    const project = await owned(request);
    const onboarded = await onboardDomain(services(), project.id, parseDomainOnboarding(request.body), publicBaseUrl(request));
    return ok(
      { ...onboarded.pack, sender: onboarded.sender, reused: onboarded.reused, warnings: onboarded.warnings, skipped: onboarded.skipped },
      onboarded.reused ? 200 : 201,
    );
  },

  'GET /v1/partner/projects/{projectId}/domains': async (request) => {
    const project = await owned(request);
    return ok({ domains: await listDomainSummaries(services(), project.id, publicBaseUrl(request)) });
  },

  'GET /v1/partner/projects/{projectId}/domains/{domain}': async (request) => {
    const project = await owned(request);
    return ok({ ...(await readDomainPack(services(), project.id, domainParam(request.params), publicBaseUrl(request))), skipped: [] });
  },

  'POST /v1/partner/projects/{projectId}/domains/{domain}/verify': async (request) => {
    const project = await owned(request);
    return ok(await verifyDomainPack(services(), project.id, domainParam(request.params), publicBaseUrl(request)));
  },

  'GET /v1/partner/projects/{projectId}/senders': async (request) => ok(await listPartnerSenders(services(), await owned(request))),

  'POST /v1/partner/projects/{projectId}/senders': async (request) => {
    const project = await owned(request);
    return ok(await createPartnerSender(services(), project, parseSenderCreation(request.body), publicBaseUrl(request)), 201);
  },

  'POST /v1/partner/projects/{projectId}/api-key/rotate': async (request) =>
    ok(await rotatePartnerKey(services(), await owned(request), request.body)),

  'GET /v1/partner/projects/{projectId}/stats': async (request) => ok(await projectStats(services(), await owned(request), request.query)),

  'GET /v1/partner/whoami': async (request) => ok(await whoAmI(services(), caller(request))),
});
