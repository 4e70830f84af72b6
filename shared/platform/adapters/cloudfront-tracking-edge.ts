import { createHash } from 'node:crypto';
import {
  CreateDistributionTenantCommand,
  EntityAlreadyExists,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetManagedCertificateDetailsCommand,
  type CloudFrontClient,
  type DistributionTenant,
} from '@aws-sdk/client-cloudfront';
import type { EdgeDomainState, TrackingEdge } from '../core/ports';

/** Certificate states from which CloudFront will not issue without a new request. */
const DEAD_CERTIFICATE = new Set(['failed', 'validation-timed-out', 'revoked', 'expired', 'inactive']);

/** Tenant names are unique in the account and at most 128 characters; longer domains get a hash. */
export function tenantName(domain: string): string {
  const name = domain.toLowerCase();
  return name.length <= 128 ? name : `t-${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}

/**
 * Tracking domains on CloudFront SaaS Manager: one distribution tenant per domain on the stack's
 * multi-tenant distribution, with a CloudFront-managed certificate validated over HTTP
 * (`ValidationTokenHost: cloudfront`), which works because the domain's CNAME already reaches the
 * connection group through TRACKING_HOST. CloudFront renews the certificate itself.
 */
export class CloudFrontTrackingEdge implements TrackingEdge {
  constructor(
    private readonly client: CloudFrontClient,
    private readonly distributionId: string,
    private readonly connectionGroupId: string | undefined,
  ) {}

  /** Finds the domain's tenant or creates it, then reads its certificate and deployment. */
  async serve(domain: string): Promise<EdgeDomainState> {
    const tenant = (await this.find(domain)) ?? (await this.create(domain));
    if (!tenant?.Id) return { status: 'provisioning', detail: 'tenant requested' };
    const cert = await this.client.send(new GetManagedCertificateDetailsCommand({ Identifier: tenant.Id })).catch((error: unknown) => {
      // The managed certificate appears a moment after the tenant.
      if (error instanceof EntityNotFound) return undefined;
      throw error;
    });
    const certificate = cert?.ManagedCertificateDetails?.CertificateStatus ?? 'not requested yet';
    const deployment = tenant.Status ?? 'unknown';
    const domainStatus = tenant.Domains?.find((d) => d.Domain?.toLowerCase() === domain.toLowerCase())?.Status ?? 'unknown';
    if (DEAD_CERTIFICATE.has(certificate)) return { status: 'failed', detail: `certificate ${certificate}` };
    if (certificate === 'issued' && deployment === 'Deployed' && domainStatus === 'active' && tenant.Enabled !== false) return { status: 'active' };
    return { status: 'provisioning', detail: `certificate ${certificate}, tenant ${deployment}, domain ${domainStatus}` };
  }

  private async find(domain: string): Promise<DistributionTenant | undefined> {
    try {
      return (await this.client.send(new GetDistributionTenantByDomainCommand({ Domain: domain }))).DistributionTenant;
    } catch (error) {
      if (error instanceof EntityNotFound) return undefined;
      throw error;
    }
  }

  private async create(domain: string): Promise<DistributionTenant | undefined> {
    try {
      const out = await this.client.send(
        new CreateDistributionTenantCommand({
          DistributionId: this.distributionId,
          ConnectionGroupId: this.connectionGroupId,
          Name: tenantName(domain),
          Domains: [{ Domain: domain }],
          Enabled: true,
          ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: domain },
        }),
      );
      return out.DistributionTenant;
    } catch (error) {
      // A concurrent run created it between our lookup and our create: read theirs.
      if (error instanceof EntityAlreadyExists) return this.find(domain);
      throw error;
    }
  }
}
