import fs from 'node:fs';
import path from 'node:path';
import { parseAuthorization } from '../shared/platform/security/api-keys';
import type { Services } from '../composition/services';
import { checkDomain, registerDomain } from '../shared/identities/domains/domain-service';
import { findDomainOwner } from '../shared/identities/domains/domain-repository';
import { findPartnerKey, getOrganization, updateOrganization } from '../shared/platform/organizations/organization-repository';
import { createOrganization, issuePartnerKey } from '../shared/platform/organizations/organization-service';
import { findApiKey } from '../shared/platform/projects/project-repository';
import { getProject } from '../shared/platform/projects/project-repository';
import { createProject, rotateProjectKey } from '../shared/platform/projects/project-service';
import type { Db } from '../shared/platform/store/client';

/** What `.local/seed.json` holds: enough for a newcomer to send a first mail. */
export interface Seed {
  base_url: string;
  partner_key: string;
  organization_id: string;
  project_id: string;
  live_key: string;
  test_key: string;
  ses_outbox_url: string;
  sender_email: string;
}

/** The demo sending domain, verified from the start so that the first send works. */
export const DEMO_DOMAIN = 'demo.mailroom.test';

/**
 * Seeds an organization with a partner key and a demo project with live and test keys and a
 * verified domain. Idempotent: when the seed file's keys still work against the table, it is reused;
 * when the file is gone but the data of an earlier run holds the demo project, that project is
 * reused with new keys (the table keeps only their hashes) and the file is written again.
 */
export async function ensureSeed(
  deps: Services,
  file: string,
  urls: { baseUrl: string; sesUrl: string; publishDns: (projectId: string, domain: string) => Promise<void> },
): Promise<Seed> {
  const { db, clock } = deps;
  const previous = readSeed(file);
  if (previous && (await seedStillValid(db, previous))) {
    const seed: Seed = { ...previous, base_url: urls.baseUrl, ses_outbox_url: urls.sesUrl };
    fs.writeFileSync(file, `${JSON.stringify(seed, null, 2)}\n`);
    return seed;
  }
  const existing = await findDemoProject(db, file);
  if (existing) {
    const partner = await issuePartnerKey(db, clock, existing.organizationId);
    const [liveKey, testKey] = [await rotateProjectKey(db, existing.projectId, 'live'), await rotateProjectKey(db, existing.projectId, 'test')];
    return writeSeed(file, {
      base_url: urls.baseUrl,
      partner_key: partner.key,
      organization_id: existing.organizationId,
      project_id: existing.projectId,
      live_key: liveKey,
      test_key: testKey,
      ses_outbox_url: urls.sesUrl,
      sender_email: `hello@${DEMO_DOMAIN}`,
    });
  }
  // The same operator code as `npm run admin`: an organization, a partner key, a root project.
  const organization = await createOrganization(db, clock, { name: 'Local organization', maxProjects: null });
  const organizationId = organization.id;
  const partner = await issuePartnerKey(db, clock, organizationId);
  const { project, liveKey, testKey } = await createProject(db, clock, { organizationId, name: 'Demo project' });
  await updateOrganization(db, organizationId, { root_project_id: project.id });
  // Registered like any domain, its records published to the local DNS as its owner would, so the
  // first check verifies it (the local SES emulator verifies DKIM at once).
  await registerDomain(deps, project.id, { domain: DEMO_DOMAIN, senderName: 'Demo', senderEmail: `hello@${DEMO_DOMAIN}` });
  await urls.publishDns(project.id, DEMO_DOMAIN);
  await checkDomain(deps, project.id, DEMO_DOMAIN, { resetSpfAndDmarc: false });
  const seed: Seed = {
    base_url: urls.baseUrl,
    partner_key: partner.key,
    organization_id: organizationId,
    project_id: project.id,
    live_key: liveKey,
    test_key: testKey,
    ses_outbox_url: urls.sesUrl,
    sender_email: `hello@${DEMO_DOMAIN}`,
  };
  return writeSeed(file, seed);
}

function writeSeed(file: string, seed: Seed): Seed {
  fs.writeFileSync(file, `${JSON.stringify(seed, null, 2)}\n`);
  return seed;
}

/**
 * The demo project of an earlier run, found by the demo domain it verified; undefined on fresh
 * data. Data whose demo domain belongs to no usable project cannot be seeded again: that throws,
 * saying in one line how to start fresh.
 */
async function findDemoProject(db: Db, file: string): Promise<{ projectId: string; organizationId: string } | undefined> {
  const projectId = await findDomainOwner(db, DEMO_DOMAIN);
  if (!projectId) return undefined;
  const project = await getProject(db, projectId);
  const organization = project ? await getOrganization(db, project.organization_id) : undefined;
  if (!project || !organization || project.disabled_at) {
    const dataDir = path.dirname(path.resolve(file));
    throw new Error(`The data in ${dataDir} holds ${DEMO_DOMAIN} for a project that is gone or disabled; to start fresh, stop Mailroom, delete ${dataDir} and run npm start again.`);
  }
  return { projectId, organizationId: organization.id };
}

function readSeed(file: string): Seed | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Seed;
  } catch {
    return undefined;
  }
}

async function seedStillValid(db: Db, seed: Seed): Promise<boolean> {
  try {
    const live = await findApiKey(db, parseAuthorization(`Bearer ${seed.live_key}`, 'project').hash);
    const partner = await findPartnerKey(db, parseAuthorization(`Bearer ${seed.partner_key}`, 'partner').hash);
    return live?.project_id === seed.project_id && partner?.organization_id === seed.organization_id;
  } catch {
    return false;
  }
}
