import fs from 'node:fs';
import type { EdgeDomainState, TrackingEdge } from '../shared/platform/core/ports';

/**
 * The local stand-in for CloudFront SaaS Manager: one tenant per tracking domain, kept in a JSON
 * file beside the other local state, with the same lifecycle the product sees in AWS. The first
 * call creates the tenant and its certificate is pending validation; the next call finds it issued
 * and deployed. A domain under a `fail.` name fails validation, as `fail.` identities fail in the
 * SES emulator, so both paths can be tried by hand.
 */
interface LocalTenant {
  domain: string;
  created_at: string;
  certificate: 'pending-validation' | 'issued' | 'validation-timed-out';
}

export class LocalTrackingEdge implements TrackingEdge {
  private readonly tenants: Record<string, LocalTenant>;

  constructor(private readonly stateFile: string) {
    this.tenants = fs.existsSync(stateFile) ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, LocalTenant>) : {};
  }

  /** Creates the domain's tenant on first sight, then moves its certificate on by one step per call. */
  async serve(domain: string): Promise<EdgeDomainState> {
    const name = domain.toLowerCase();
    const tenant = this.tenants[name];
    if (!tenant) {
      this.tenants[name] = { domain: name, created_at: new Date().toISOString(), certificate: 'pending-validation' };
      this.save();
      return { status: 'provisioning', detail: 'certificate pending-validation, tenant InProgress, domain inactive' };
    }
    if (tenant.certificate === 'pending-validation') {
      tenant.certificate = /(^|\.)fail\./.test(name) ? 'validation-timed-out' : 'issued';
      this.save();
    }
    return tenant.certificate === 'issued' ? { status: 'active' } : { status: 'failed', detail: `certificate ${tenant.certificate}` };
  }

  private save(): void {
    fs.writeFileSync(this.stateFile, JSON.stringify(this.tenants, null, 2));
  }
}
