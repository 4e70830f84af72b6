/**
 * Putting a project on its own SES tenant (docs/deliverability.md): its reputation, sending status
 * and pauses apart from the other projects of the account. Off by default: AWS bills each tenant.
 */
import * as z from '../../platform/core/zod';
import type { Needs } from '../../platform/core/dependencies';
import type { Project } from '../../platform/projects/project';
import { getProject, setProjectSesTenant } from '../../platform/projects/project-repository';
import { tenantNameOf } from '../../platform/projects/project-tenant';
import { listDomains } from '../domains/domain-repository';
import { listSenders } from '../domains/sender-repository';

/**
 * Creates the project's tenant (named after its id, so a retry finds it), associates every identity
 * the project sends from (its domains, and the addresses of senders outside them) and then the
 * configuration set, and only then records the tenant on the project: from that write on every send
 * names it, and SES refuses a send through a tenant that lacks its identity or configuration set.
 * A crash anywhere before the write leaves sends as they were, and running it again completes it.
 */
export async function provisionProjectTenant(deps: Needs<'db' | 'clock' | 'tenants'>, project: Project) {
  const name = tenantNameOf(project.id);
  const tenant = await deps.tenants.ensureTenant(name);
  const [domains, senders] = await Promise.all([listDomains(deps.db, project.id), listSenders(deps.db, project.id)]);
  const domainNames = new Set(domains.map((d) => d.domain.toLowerCase()));
  const identities = [...domainNames, ...senders.map((s) => s.from_email.toLowerCase()).filter((email) => !domainNames.has(email.split('@')[1] ?? ''))];
  for (const identity of [...new Set(identities)]) await deps.tenants.associateIdentity(tenant, identity);
  await deps.tenants.associateConfigurationSet(tenant);
  const provisionedAt = deps.clock.now().toISOString();
  await setProjectSesTenant(deps.db, project.id, { name, id: tenant.id, arn: tenant.arn, provisioned_at: provisionedAt });
  const stored = (await getProject(deps.db, project.id, true))?.ses_tenant;
  return {
    project_id: project.id,
    tenant: { name, id: tenant.id, arn: tenant.arn, sending_status: tenant.sendingStatus },
    identities: [...new Set(identities)].sort(),
    configuration_set_associated: true as const,
    provisioned_at: stored?.provisioned_at ?? provisionedAt,
  };
}

/** The answer of `POST /v1/partner/projects/{projectId}/ses-tenant`. */
export const projectTenantSchema = z
  .strictObject({
    project_id: z.string().check(z.meta({ format: 'uuid' })),
    tenant: z.strictObject({
      name: z.string().check(z.meta({ description: '`mr-` and the project id' })),
      id: z.string(),
      arn: z.string(),
      sending_status: z.string().check(z.meta({ description: "SES's sending status of the tenant: `ENABLED`, `REINSTATED` or `DISABLED`" })),
    }),
    identities: z.array(z.string()).check(z.meta({ description: 'The identities associated with the tenant: the project\'s domains and sender addresses' })),
    configuration_set_associated: z.literal(true),
    provisioned_at: z.string().check(z.meta({ format: 'date-time', description: 'Since when every send of the project names the tenant' })),
  })
  .check(z.meta({ id: 'ProjectSesTenant', description: 'The project\'s own SES tenant, with the identities and the configuration set associated' }));

export const projectTenantExample = {
  project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
  tenant: {
    name: 'mr-0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
    id: 'tn-8f2c1d4e6a0b3c5d7e9f',
    arn: 'arn:aws:ses:us-east-1:123456789012:tenant/mr-0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87/tn-8f2c1d4e6a0b3c5d7e9f',
    sending_status: 'ENABLED',
  },
  identities: ['mail.acme.example'],
  configuration_set_associated: true,
  provisioned_at: '2026-11-26T11:02:00.000Z',
};
