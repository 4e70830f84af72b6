import {
  AlreadyExistsException,
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  PutEmailIdentityMailFromAttributesCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { IDENTITY_TAGS, type IdentityCreator, type IdentityProvider, type IdentityState, type ProviderStatus } from '../core/ports';

/** Identity port over SES v2. */
export class SesIdentityProvider implements IdentityProvider {
  /**
   * @param deployment this deployment's name, put on every identity it creates (IDENTITY_TAGS.deployment):
   *   the stack's IAM policy lets it change only identities carrying it.
   */
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet: string | undefined,
    private readonly deployment: string,
  ) {}

  async ensureDomainIdentity(domain: string, projectId: string): Promise<{ dkimTokens: string[]; created: boolean; createdBy: IdentityCreator }> {
    try {
      const out = await this.client.send(
        new CreateEmailIdentityCommand({ EmailIdentity: domain, ConfigurationSetName: this.configurationSet, Tags: this.tags(projectId) }),
      );
      return { dkimTokens: out.DkimAttributes?.Tokens ?? [], created: true, createdBy: { deployment: this.deployment, project: projectId } };
    } catch (error) {
      if (!(error instanceof AlreadyExistsException) && (error as { name?: string }).name !== 'AlreadyExistsException') throw error;
      const existing = await this.getIdentity(domain);
      return { dkimTokens: existing?.dkimTokens ?? [], created: false, createdBy: existing?.createdBy ?? {} };
    }
  }

  /** The tags of an identity created for `projectId` (CreateEmailIdentity takes them; no TagResource call). */
  private tags(projectId: string) {
    return [
      { Key: IDENTITY_TAGS.deployment, Value: this.deployment },
      { Key: IDENTITY_TAGS.project, Value: projectId },
    ];
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
        createdBy: {
          deployment: out.Tags?.find((t) => t.Key === IDENTITY_TAGS.deployment)?.Value,
          project: out.Tags?.find((t) => t.Key === IDENTITY_TAGS.project)?.Value,
        },
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

  async createAddressIdentity(email: string, projectId: string): Promise<void> {
    try {
      await this.client.send(new CreateEmailIdentityCommand({ EmailIdentity: email, ConfigurationSetName: this.configurationSet, Tags: this.tags(projectId) }));
    } catch (error) {
      if (!(error instanceof AlreadyExistsException) && (error as { name?: string }).name !== 'AlreadyExistsException') throw error;
    }
  }
}
