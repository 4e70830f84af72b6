import {
  AlreadyExistsException,
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  PutEmailIdentityMailFromAttributesCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { IdentityProvider, IdentityState, ProviderStatus } from '../domains/identity-provider';

/** Identity port over SES v2. */
export class SesIdentityProvider implements IdentityProvider {
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet?: string,
  ) {}

  async ensureDomainIdentity(domain: string): Promise<{ dkimTokens: string[]; created: boolean }> {
    try {
      const out = await this.client.send(
        new CreateEmailIdentityCommand({ EmailIdentity: domain, ConfigurationSetName: this.configurationSet }),
      );
      return { dkimTokens: out.DkimAttributes?.Tokens ?? [], created: true };
    } catch (error) {
      if (!(error instanceof AlreadyExistsException) && (error as { name?: string }).name !== 'AlreadyExistsException') throw error;
      const existing = await this.getIdentity(domain);
      return { dkimTokens: existing?.dkimTokens ?? [], created: false };
    }
  }

  async setMailFrom(domain: string, mailFromDomain: string): Promise<void> {
    await this.client.send(
      new PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: domain, MailFromDomain: mailFromDomain, BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' }),
    );
  }

  async getIdentity(identity: string): Promise<IdentityState | undefined> {
    try {
      const out = await this.client.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      return {
        verifiedForSending: out.VerifiedForSendingStatus === true,
        verificationStatus: (out.VerificationStatus as ProviderStatus | undefined) ?? (out.VerifiedForSendingStatus ? 'SUCCESS' : 'PENDING'),
        dkimStatus: (out.DkimAttributes?.Status as ProviderStatus | undefined) ?? 'NOT_STARTED',
        mailFromStatus: (out.MailFromAttributes?.MailFromDomainStatus as ProviderStatus | undefined) ?? 'NOT_STARTED',
        dkimTokens: out.DkimAttributes?.Tokens ?? [],
      };
    } catch (error) {
      if (error instanceof NotFoundException || (error as { name?: string }).name === 'NotFoundException') return undefined;
      throw error;
    }
  }

  async deleteIdentity(identity: string): Promise<void> {
    try {
      await this.client.send(new DeleteEmailIdentityCommand({ EmailIdentity: identity }));
    } catch (error) {
      if (!(error instanceof NotFoundException) && (error as { name?: string }).name !== 'NotFoundException') throw error;
    }
  }

  async createAddressIdentity(email: string): Promise<void> {
    try {
      await this.client.send(new CreateEmailIdentityCommand({ EmailIdentity: email, ConfigurationSetName: this.configurationSet }));
    } catch (error) {
      if (!(error instanceof AlreadyExistsException) && (error as { name?: string }).name !== 'AlreadyExistsException') throw error;
    }
  }
}
