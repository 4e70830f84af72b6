import { CreateTenantCommand, CreateTenantResourceAssociationCommand, GetTenantCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { TenantProvider, TenantState } from '../core/ports';

/** An SES error's name (the SDK's exception classes carry it). */
const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/**
 * The tenant port over SES v2 (CreateTenant, GetTenant, CreateTenantResourceAssociation). The ARNs
 * of the resources it associates are built from the tenant's own ARN
 * (`arn:<partition>:ses:<region>:<account>:tenant/<name>/<id>`), so it needs no account id.
 */
export class SesTenantProvider implements TenantProvider {
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet?: string,
  ) {}

  async ensureTenant(name: string): Promise<TenantState> {
    try {
      const out = await this.client.send(new CreateTenantCommand({ TenantName: name }));
      return { name, id: out.TenantId ?? '', arn: out.TenantArn ?? '', sendingStatus: out.SendingStatus ?? 'ENABLED' };
    } catch (error) {
      // A retry after a crash finds the tenant made by the first try.
      if (errorName(error) !== 'AlreadyExistsException') throw error;
      const existing = await this.getTenant(name);
      if (!existing) throw error;
      return existing;
    }
  }

  async getTenant(name: string): Promise<TenantState | undefined> {
    try {
      const { Tenant: t } = await this.client.send(new GetTenantCommand({ TenantName: name }));
      return t ? { name, id: t.TenantId ?? '', arn: t.TenantArn ?? '', sendingStatus: t.SendingStatus ?? 'ENABLED' } : undefined;
    } catch (error) {
      if (errorName(error) === 'NotFoundException') return undefined;
      throw error;
    }
  }

  associateIdentity(tenant: TenantState, identity: string): Promise<void> {
    return this.associate(tenant, 'identity', identity.toLowerCase());
  }

  associateConfigurationSet(tenant: TenantState): Promise<void> {
    if (!this.configurationSet) throw new Error('SES_CONFIGURATION_SET is not set: sends through a tenant need their configuration set associated');
    return this.associate(tenant, 'configuration-set', this.configurationSet);
  }

  /** Associates the account's `type/name` resource (its ARN in the tenant's region and account) with the tenant; done already is done. */
  private async associate(tenant: TenantState, type: 'identity' | 'configuration-set', name: string): Promise<void> {
    const prefix = tenant.arn.split(':tenant/')[0];
    try {
      await this.client.send(new CreateTenantResourceAssociationCommand({ TenantName: tenant.name, ResourceArn: `${prefix}:${type}/${name}` }));
    } catch (error) {
      if (errorName(error) !== 'AlreadyExistsException') throw error;
    }
  }
}
