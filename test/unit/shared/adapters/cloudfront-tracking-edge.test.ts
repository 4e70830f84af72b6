import {
  CloudFrontClient,
  CreateDistributionTenantCommand,
  EntityAlreadyExists,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetManagedCertificateDetailsCommand,
} from '@aws-sdk/client-cloudfront';
import { mockClient } from 'aws-sdk-client-mock';
import { CloudFrontTrackingEdge, tenantName } from '../../../../shared/platform/adapters/cloudfront-tracking-edge';

const cloudfront = mockClient(CloudFrontClient);
const edge = new CloudFrontTrackingEdge(new CloudFrontClient({ region: 'us-east-1' }), 'EDIST123', 'cg_abc');
afterEach(() => cloudfront.reset());

const DOMAIN = 'track.example.com';
const notFound = () => new EntityNotFound({ message: 'no tenant', $metadata: {} });
const tenant = (status: string, domainStatus: 'active' | 'inactive') => ({
  Id: 'dt_1',
  Name: DOMAIN,
  Status: status,
  Enabled: true,
  Domains: [{ Domain: DOMAIN, Status: domainStatus }],
});

describe('CloudFrontTrackingEdge.serve', () => {
  test('creates a tenant with a CloudFront-managed certificate validated over HTTP when the domain has none', async () => {
    cloudfront.on(GetDistributionTenantByDomainCommand).rejects(notFound());
    cloudfront.on(CreateDistributionTenantCommand).resolves({ DistributionTenant: tenant('InProgress', 'inactive') });
    cloudfront.on(GetManagedCertificateDetailsCommand).resolves({ ManagedCertificateDetails: { CertificateStatus: 'pending-validation' } });

    await expect(edge.serve(DOMAIN)).resolves.toEqual({ status: 'provisioning', detail: 'certificate pending-validation, tenant InProgress, domain inactive' });
    expect(cloudfront.commandCalls(CreateDistributionTenantCommand)[0].args[0].input).toEqual({
      DistributionId: 'EDIST123',
      ConnectionGroupId: 'cg_abc',
      Name: DOMAIN,
      Domains: [{ Domain: DOMAIN }],
      Enabled: true,
      ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: DOMAIN },
    });
  });

  test('a repeat (redelivery, or a crash after the create) finds the tenant by its domain and creates nothing', async () => {
    cloudfront.on(GetDistributionTenantByDomainCommand).resolves({ DistributionTenant: tenant('Deployed', 'active') });
    cloudfront.on(GetManagedCertificateDetailsCommand).resolves({ ManagedCertificateDetails: { CertificateStatus: 'issued' } });

    await expect(edge.serve(DOMAIN)).resolves.toEqual({ status: 'active' });
    expect(cloudfront.commandCalls(CreateDistributionTenantCommand)).toHaveLength(0);
    expect(cloudfront.commandCalls(GetManagedCertificateDetailsCommand)[0].args[0].input).toEqual({ Identifier: 'dt_1' });
  });

  test('is not active until the certificate is issued and the tenant deployed with the domain active', async () => {
    cloudfront.on(GetDistributionTenantByDomainCommand).resolves({ DistributionTenant: tenant('InProgress', 'active') });
    cloudfront.on(GetManagedCertificateDetailsCommand).resolves({ ManagedCertificateDetails: { CertificateStatus: 'issued' } });
    await expect(edge.serve(DOMAIN)).resolves.toMatchObject({ status: 'provisioning' });
  });

  test('a certificate that timed out or failed validation is a failure, with its status', async () => {
    cloudfront.on(GetDistributionTenantByDomainCommand).resolves({ DistributionTenant: tenant('Deployed', 'inactive') });
    cloudfront.on(GetManagedCertificateDetailsCommand).resolves({ ManagedCertificateDetails: { CertificateStatus: 'validation-timed-out' } });
    await expect(edge.serve(DOMAIN)).resolves.toEqual({ status: 'failed', detail: 'certificate validation-timed-out' });
  });

  test('a concurrent run that created the tenant first is read back instead of failing', async () => {
    cloudfront
      .on(GetDistributionTenantByDomainCommand)
      .rejectsOnce(notFound())
      .resolves({ DistributionTenant: tenant('InProgress', 'inactive') });
    cloudfront.on(CreateDistributionTenantCommand).rejects(new EntityAlreadyExists({ message: 'exists', $metadata: {} }));
    cloudfront.on(GetManagedCertificateDetailsCommand).rejects(notFound());
    await expect(edge.serve(DOMAIN)).resolves.toEqual({ status: 'provisioning', detail: 'certificate not requested yet, tenant InProgress, domain inactive' });
  });

  test('other errors (access denied, throttling) are not swallowed', async () => {
    cloudfront.on(GetDistributionTenantByDomainCommand).rejects(new Error('AccessDenied'));
    await expect(edge.serve(DOMAIN)).rejects.toThrow('AccessDenied');
  });
});

describe('tenantName', () => {
  test('is the domain itself, or a hash when the domain is longer than a tenant name may be', () => {
    expect(tenantName('Track.Example.com')).toBe('track.example.com');
    const long = `track.${'a'.repeat(60)}.${'b'.repeat(60)}.example.com`;
    expect(tenantName(long)).toMatch(/^t-[0-9a-f]{40}$/);
  });
});
