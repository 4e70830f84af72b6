import { CreateTenantResourceAssociationCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { overrideServices, services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import type { TenantProvider } from '../../shared/platform/core/ports';
import { getProject } from '../../shared/platform/projects/project-repository';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * A project on its own SES tenant, in the local cloud whose SES emulator knows tenants: the
 * provisioning (crash between its writes included), the sends that name the tenant, the identities
 * registered afterwards, and the tenant's sending status in health.
 */

let cloud: TestCloud;
let projectId: string;
let tenants: TenantProvider;

beforeAll(async () => {
  cloud = await startTestCloud();
  projectId = cloud.seed.project_id;
  tenants = services().tenants;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const provision = () => cloud.api('POST', `/v1/partner/projects/${projectId}/ses-tenant`, { key: cloud.seed.partner_key });
const health = async () => (await cloud.api('GET', '/domains/health')).body.reputation as Record<string, any>;
const sendFrom = async (sender: string) => {
  const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { sender_email: sender, recipient_email: 'success@simulator.amazonses.com' }) });
  expect(res.status).toBe(200);
  return cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (a) => !['queued', 'sending'].includes(String(a.current_status)));
};

describe('POST /v1/partner/projects/{projectId}/ses-tenant', () => {
  test('a project shares the account\'s reputation until it is put on a tenant (off by default)', async () => {
    expect((await health()).ses_tenant).toBeNull();
    expect((await getProject(services().db, projectId, true))?.ses_tenant).toBeUndefined();
  });

  test('a crash before the configuration set is associated records nothing: sends go on without the tenant, and the retry completes it', async () => {
    overrideServices({
      tenants: {
        ...tenants,
        ensureTenant: (name) => tenants.ensureTenant(name),
        getTenant: (name) => tenants.getTenant(name),
        associateIdentity: (t, identity) => tenants.associateIdentity(t, identity),
        associateConfigurationSet: async () => {
          throw new Error('SES unreachable');
        },
      },
    });
    try {
      expect((await provision()).status).toBe(500);
    } finally {
      overrideServices({ tenants });
    }
    expect((await getProject(services().db, projectId, true))?.ses_tenant).toBeUndefined();
    expect((await sendFrom(cloud.seed.sender_email)).current_status).toMatch(/sent|delivered/);

    const res = await provision();
    expect(res.status).toBe(200);
    const domain = cloud.seed.sender_email.split('@')[1];
    expect(res.body).toMatchObject({
      project_id: projectId,
      tenant: { name: `mr-${projectId}`, sending_status: 'ENABLED' },
      configuration_set_associated: true,
    });
    expect(res.body.identities).toContain(domain);
    expect(String((res.body.tenant as Record<string, string>).arn)).toMatch(new RegExp(`^arn:aws:ses:us-east-1:\\d{12}:tenant/mr-${projectId}/tn-`));
    expect((await getProject(services().db, projectId, true))?.ses_tenant).toMatchObject({ name: `mr-${projectId}` });
  });

  test('the project\'s sends name the tenant, and go out from the identities it holds', async () => {
    expect((await sendFrom(cloud.seed.sender_email)).current_status).toMatch(/sent|delivered/);
    // A domain the tenant does not hold (written around the API, so never associated): SES refuses the send through the tenant.
    const now = new Date().toISOString();
    await putDomain(services().db, { project_id: projectId, domain: 'outside.example.org', identity_id: 'outside', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
    const refused = await sendFrom('news@outside.example.org');
    expect(refused).toMatchObject({ current_status: 'failed' });
    expect(String(refused.error_message)).toContain('not associated with tenant');
  });

  test('a domain registered afterwards is associated with the tenant at registration', async () => {
    const registered = await cloud.api('POST', '/domains/register', { body: { domain: 'later.example.org', sender_name: 'Later', sender_email: 'news@later.example.org' } });
    expect([200, 201]).toContain(registered.status);
    const ses = new SESv2Client({ endpoint: cloud.sesUrl.replace('localhost', '127.0.0.1'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const tenant = (await getProject(services().db, projectId, true))!.ses_tenant!;
    const again = ses.send(new CreateTenantResourceAssociationCommand({ TenantName: tenant.name, ResourceArn: `${tenant.arn.split(':tenant/')[0]}:identity/later.example.org` }));
    await expect(again).rejects.toMatchObject({ name: 'AlreadyExistsException' });
  });

  test('health shows the tenant and its sending status; a repeated call changes nothing', async () => {
    expect((await health()).ses_tenant).toEqual({ name: `mr-${projectId}`, sending_status: 'ENABLED' });
    const overview = await cloud.api('GET', `/v1/partner/projects/${projectId}`, { key: cloud.seed.partner_key });
    expect((overview.body as Record<string, any>).health.reputation.ses_tenant).toEqual({ name: `mr-${projectId}`, sending_status: 'ENABLED' });
    const first = (await getProject(services().db, projectId, true))!.ses_tenant!;
    const repeat = await provision();
    expect(repeat.status).toBe(200);
    expect(repeat.body.provisioned_at).toBe(first.provisioned_at);
    expect((repeat.body.tenant as Record<string, string>).id).toBe(first.id);
  });
});
