import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { error, json } from './ses-answers';

/**
 * Emulated SES v2 tenants, answering the REST calls SES does (CreateTenant, GetTenant,
 * CreateTenantResourceAssociation), and the rule SES applies to a send that names a tenant: it
 * goes out only when the tenant exists and holds the sending identity and the configuration set
 * (SendEmailRequest.TenantName). Tenants are ENABLED; a tenant named with `disabled-` in it is
 * DISABLED, so the health of a paused tenant can be tried by hand.
 */
interface StoredTenant {
  id: string;
  arn: string;
  created: string;
  resources: string[];
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export class TenantEmulator {
  private tenants: Record<string, StoredTenant>;

  constructor(private readonly stateFile: string) {
    this.tenants = fs.existsSync(stateFile) ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, StoredTenant>) : {};
  }

  /** Handles the request if it is a tenant call; false to let it through. */
  handles(req: http.IncomingMessage): boolean {
    const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/$/, '');
    return req.method === 'POST' && ['/v2/email/tenants', '/v2/email/tenants/get', '/v2/email/tenants/resources'].includes(path);
  }

  /** Answers a tenant call. */
  answer(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/$/, '');
    const input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    const name = String(input.TenantName ?? '');
    if (path === '/v2/email/tenants') {
      if (!NAME.test(name)) return error(res, 400, 'BadRequestException', 'TenantName must be 1 to 64 letters, digits, hyphens or underscores');
      if (this.tenants[name]) return error(res, 400, 'AlreadyExistsException', `Tenant ${name} already exists.`);
      const id = `tn-${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const tenant: StoredTenant = { id, arn: `arn:aws:ses:${REGION}:${ACCOUNT}:tenant/${name}/${id}`, created: new Date().toISOString(), resources: [] };
      this.tenants[name] = tenant;
      this.save();
      return json(res, 200, { TenantName: name, TenantId: id, TenantArn: tenant.arn, CreatedTimestamp: Date.parse(tenant.created) / 1000, SendingStatus: this.status(name), Tags: [] });
    }
    const tenant = this.tenants[name];
    if (!tenant) return error(res, 404, 'NotFoundException', `Tenant ${name} does not exist.`);
    if (path === '/v2/email/tenants/get') {
      return json(res, 200, { Tenant: { TenantName: name, TenantId: tenant.id, TenantArn: tenant.arn, CreatedTimestamp: Date.parse(tenant.created) / 1000, SendingStatus: this.status(name), Tags: [] } });
    }
    const resource = String(input.ResourceArn ?? '');
    if (!/^arn:aws:ses:[^:]+:\d{12}:(identity|configuration-set|template)\/.+$/.test(resource)) return error(res, 400, 'BadRequestException', `Not a resource a tenant can hold: ${resource}`);
    if (tenant.resources.includes(resource.toLowerCase())) return error(res, 400, 'AlreadyExistsException', `${resource} is already associated with tenant ${name}.`);
    tenant.resources.push(resource.toLowerCase());
    this.save();
    return json(res, 200, {});
  }

  /**
   * Why SES would refuse a send through `tenantName`, or undefined when it goes out: the tenant must
   * exist and hold the From address's identity (its domain, or the address itself) and the
   * configuration set the send names.
   */
  refusal(send: { TenantName?: string; FromEmailAddress?: string; ConfigurationSetName?: string }): string | undefined {
    const name = send.TenantName;
    if (!name) return undefined;
    const tenant = this.tenants[name];
    if (!tenant) return `Tenant ${name} does not exist.`;
    if (this.status(name) === 'DISABLED') return `Sending is disabled for tenant ${name}.`;
    const held = (kind: string, value: string) => tenant.resources.some((r) => r.endsWith(`:${kind}/${value.toLowerCase()}`));
    const from = /<([^>]+)>\s*$/.exec(send.FromEmailAddress ?? '')?.[1] ?? send.FromEmailAddress ?? '';
    const domain = from.split('@')[1] ?? '';
    if (!held('identity', from) && !held('identity', domain)) return `The identity ${domain} is not associated with tenant ${name}.`;
    if (send.ConfigurationSetName && !held('configuration-set', send.ConfigurationSetName)) return `The configuration set ${send.ConfigurationSetName} is not associated with tenant ${name}.`;
    return undefined;
  }

  private status(name: string): string {
    return name.includes('disabled-') ? 'DISABLED' : 'ENABLED';
  }

  private save(): void {
    fs.writeFileSync(this.stateFile, JSON.stringify(this.tenants, null, 2));
  }
}
