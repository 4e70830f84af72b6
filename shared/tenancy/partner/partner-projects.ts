import type { KeyMode } from '../../platform/security/api-keys';
import type { PartnerCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { domainHealth } from '../../identities/domains/domain-health';
import { listDomains } from '../../identities/domains/domain-repository';
import { presentSender } from '../../identities/domains/sender-service';
import { listSenders } from '../../identities/domains/sender-repository';
import { AppError } from '../../platform/core/errors';
import { getOrganization } from '../../platform/organizations/organization-repository';
import type { Project } from '../../platform/projects/project';
import {
  createClientProject,
  findExternalKey,
  getProject,
  getProjects,
  listOrganizationProjectIds,
  setClientProjectDisabled,
  updateProjectFields,
} from '../../platform/projects/project-repository';
import { newProjectWithKeys, rotateProjectKey } from '../../platform/projects/project-service';
import { dayOf, hardBounceRate, readDomainCounts, COUNTER_FIELDS, type DomainCounts } from '../../identities/stats/domain-stats';
import { resumeMarketing } from '../../identities/reputation/project-reputation';
import { resumeProjectPausedCampaigns } from '../../marketing/campaigns/project-resume';
import { onboardDomain, type StepReport } from './partner-domains';
import { partnerError, type CreateProjectInput } from './project-request';
import { presentProject, presentProjectSummary } from './project-presenter';

/** The project if it belongs to the caller's organization; any other id is a 404, never a 403. */
export async function requireOwnedProject(deps: Needs<'db'>, caller: PartnerCaller, projectId: string): Promise<Project> {
  const project = /^[0-9a-f-]{36}$/i.test(projectId) ? await getProject(deps.db, projectId.toLowerCase()) : undefined;
  if (!project || project.organization_id !== caller.organizationId) throw partnerError(404, 'NOT_FOUND', 'Project not found');
  return project;
}

/**
 * `POST /v1/partner/projects`. With an `external_key` a retry returns the same project (200,
 * `existing: true`, no key: keys are shown once); a disabled one is 409 PROJECT_DISABLED. With a
 * domain and sender the domain is onboarded too; if that fails the project still exists
 * (`partial: true`, `errors[]`) and the domains POST can be retried.
 */
export async function createPartnerProject(deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>, caller: PartnerCaller, input: CreateProjectInput, baseUrl: string | undefined) {
  const org = await getOrganization(deps.db, caller.organizationId);
  if (!org) throw partnerError(500, 'NO_OWNER', 'The organization of this key no longer exists');

  const existingId = input.externalKey ? await findExternalKey(deps.db, org.id, input.externalKey) : undefined;
  let project: Project | undefined = existingId ? await getProject(deps.db, existingId) : undefined;
  let keys: { live: string; test: string } | undefined;

  if (!project) {
    const created = newProjectWithKeys({ organizationId: org.id, name: input.name, timezone: input.timezone, country: input.country }, deps.clock.now());
    const candidate = created.project;
    let conflict: Awaited<ReturnType<typeof createClientProject>>;
    try {
      conflict = await createClientProject(deps.db, candidate, input.externalKey);
    } catch (error) {
      throw new AppError(500, 'The project could not be created', 'CREATE_FAILED', {}, { cause: error });
    }
    if (conflict === 'quota_reached') {
      throw partnerError(403, 'MAX_PROJECTS_REACHED', `This organization may have at most ${org.max_projects} active projects`, { max_projects: org.max_projects });
    }
    if (conflict === 'external_key_taken') {
      // A concurrent call with the same external key won: answer with its project.
      const winner = await findExternalKey(deps.db, org.id, input.externalKey as string);
      project = winner ? await getProject(deps.db, winner) : undefined;
      if (!project) throw new AppError(500, 'The project could not be created', 'CREATE_FAILED');
    } else {
      project = candidate;
      keys = { live: created.liveKey, test: created.testKey };
    }
  }
  if (!keys && project.disabled_at) {
    throw partnerError(409, 'PROJECT_DISABLED', 'A project with this external_key exists and is disabled; reactivate it first', { project_id: project.id });
  }

  const body: Record<string, unknown> = { project_id: project.id, slug: project.slug };
  if (keys) Object.assign(body, { api_key: keys.live, test_api_key: keys.test });
  else body.existing = true;

  if (input.domain && input.sender) {
    const errors: StepReport[] = [];
    try {
      const onboarded = await onboardDomain(deps, project.id, { domain: input.domain, sender: input.sender }, baseUrl);
      Object.assign(body, { domain: onboarded.pack, sender: onboarded.sender, warnings: onboarded.warnings, skipped: onboarded.skipped, errors, partial: false });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push({ step: 'domain', error_code: error.code ?? 'DOMAIN_FAILED', error: error.message });
      Object.assign(body, { partial: true, errors, warnings: [], skipped: [] });
    }
  }
  return { status: keys ? 201 : 200, body };
}

/** The organization's client projects. */
export async function listPartnerProjects(deps: Needs<'db'>, caller: PartnerCaller) {
  const ids = await listOrganizationProjectIds(deps.db, caller.organizationId);
  const projects = (await getProjects(deps.db, ids)).sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { projects: projects.map(presentProjectSummary) };
}

/** One project with its domains, senders and a health block (`can_send`, `status`). */
export async function projectOverview(deps: Needs<'db' | 'clock' | 'tenants'>, project: Project) {
  const [domains, senders, health] = await Promise.all([listDomains(deps.db, project.id), listSenders(deps.db, project.id), domainHealth(deps, project.id)]);
  const byDomain = new Map(domains.map((d) => [d.domain, d]));
  const presentedSenders = senders.map((s) => presentSender(s, byDomain.get(s.from_email.split('@')[1])));
  const canSend = !project.disabled_at && (domains.some((d) => d.can_send) || presentedSenders.some((s) => s.can_send));
  const { reputation } = health;
  const status = !canSend || health.summary.critical > 0 ? 'critical' : health.summary.warning > 0 || reputation.issues.length > 0 ? 'warning' : 'healthy';
  return {
    project: presentProject(project),
    domains: domains.map((d) => ({ domain: d.domain, identity_id: d.identity_id, verification_status: d.verification_status, can_send: d.can_send })),
    senders: presentedSenders,
    health: { can_send: canSend, status, issues: [...reputation.issues, ...health.data.flatMap((d) => d.issues.map((issue) => `${d.domain}: ${issue}`))], reputation },
  };
}

/** Changes only the sent fields; works on a disabled project. */
export async function patchPartnerProject(deps: Needs<'db'>, project: Project, fields: Record<string, unknown>) {
  await updateProjectFields(deps.db, project.id, fields);
  return { project: presentProject((await getProject(deps.db, project.id)) as Project) };
}

/** Soft-disables a project: sending stops, keys still read, nothing is deleted. Idempotent. */
export async function disablePartnerProject(deps: Needs<'db' | 'clock'>, project: Project) {
  await setClientProjectDisabled(deps.db, project, deps.clock.now().toISOString());
  return { project_id: project.id, disabled: true };
}

/** Reactivates a project (idempotent); refused with MAX_PROJECTS_REACHED when the quota is full. */
export async function reactivatePartnerProject(deps: Needs<'db'>, project: Project) {
  if (project.disabled_at && !(await setClientProjectDisabled(deps.db, project, null))) {
    throw partnerError(403, 'MAX_PROJECTS_REACHED', 'Reactivating this project would exceed the organization\'s project quota');
  }
  return { project: presentProject((await getProject(deps.db, project.id)) as Project) };
}

/**
 * Resumes the project's marketing mail: the pause goes (the watch measures from now on), then the
 * campaigns that paused with it run again. Idempotent: a retry after a crash in between resumes the
 * campaigns the first call did not reach.
 */
export async function resumePartnerMarketing(deps: Needs<'db' | 'queue' | 'clock'>, project: Project) {
  const { before, at: resumedAt } = await resumeMarketing(deps, project.id);
  const campaigns = await resumeProjectPausedCampaigns(deps, project.id);
  return { project_id: project.id, marketing_paused: false as const, was_paused: Boolean(before?.marketing_pause), resumed_at: resumedAt, campaigns_resumed: campaigns };
}

/** Rotates the project's live or test key; the old one stops at once, the new one is shown once. */
export async function rotatePartnerKey(deps: Needs<'db' | 'clock'>, project: Project, mode: KeyMode) {
  const apiKey = await rotateProjectKey(deps.db, project.id, mode);
  return { project_id: project.id, mode, api_key: apiKey, rotated_at: deps.clock.now().toISOString() };
}

/** Delivery, bounce, open and click figures over a period, per sender domain and in total. */
export async function projectStats(deps: Needs<'db' | 'clock'>, project: Project, period: { since?: string; until?: string }) {
  const now = deps.clock.now();
  // The route's query schema accepted both as dates; '' means not given.
  const until = period.until ? new Date(period.until) : now;
  const since = period.since ? new Date(period.since) : new Date(until.getTime() - 30 * 86_400_000);
  if (since > until) throw partnerError(400, 'INVALID_INPUT', 'since must not be after until');
  const domains = await listDomains(deps.db, project.id);
  const rows = await Promise.all(
    domains.map(async (d) => {
      const counts = await readDomainCounts(deps.db, project.id, d.domain, dayOf(since), dayOf(until));
      return { sender_domain: d.domain, ...counts, hard_bounce_rate: hardBounceRate(counts) };
    }),
  );
  const totals = Object.fromEntries(COUNTER_FIELDS.map((f) => [f, rows.reduce((sum, r) => sum + r[f], 0)])) as DomainCounts;
  return {
    project_id: project.id,
    period: { since: since.toISOString(), until: until.toISOString() },
    totals: { ...totals, hard_bounce_rate: hardBounceRate(totals) },
    domains: rows,
  };
}

/** The organization behind the key and its project quota. */
export async function whoAmI(deps: Needs<'db'>, caller: PartnerCaller) {
  const org = await getOrganization(deps.db, caller.organizationId);
  if (!org) throw partnerError(500, 'NO_OWNER', 'The organization of this key no longer exists');
  return {
    organization: { id: org.id, name: org.name, created_at: org.created_at, root_project_id: org.root_project_id ?? null },
    partner: {
      key_id: caller.keyId ?? null,
      max_projects: org.max_projects,
      active_projects: org.active_projects ?? 0,
      remaining_projects: org.max_projects === null ? null : Math.max(0, org.max_projects - (org.active_projects ?? 0)),
    },
  };
}
