/** The mail provider's view of an identity (SES v2 GetEmailIdentity, reduced to what we use). */
export type ProviderStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE' | 'NOT_STARTED';

export interface IdentityState {
  /** The provider will send for this identity (may precede DKIM success). */
  verifiedForSending: boolean;
  verificationStatus: ProviderStatus;
  dkimStatus: ProviderStatus;
  /** Custom MAIL FROM status; NOT_STARTED when none is set. */
  mailFromStatus: ProviderStatus;
  dkimTokens: string[];
  /** Which deployment and project created the identity (its tags); undefined parts: not ours to know. */
  createdBy: IdentityCreator;
}

/** The tags this service puts on every identity it creates, read back from the provider. */
export interface IdentityCreator {
  /** The deployment (stack) that created it; undefined for an identity no deployment of ours created. */
  deployment?: string;
  /** The project it was created for. */
  project?: string;
}

/**
 * Tag keys of the identities this service creates. The deployment tag is what the stack's IAM
 * policy conditions identity changes on (lib/ses.ts), so a function can only alter or delete the
 * identities its own deployment made.
 */
export const IDENTITY_TAGS = { deployment: 'mailroom:stack', project: 'mailroom:project' } as const;

/** Sending identities at the provider: domains with Easy DKIM and a custom MAIL FROM, and single addresses. */
export interface IdentityProvider {
  /**
   * Creates a domain identity with Easy DKIM, tagged for this deployment and `projectId`, or returns
   * the existing one's tokens and creator (reconciliation).
   */
  ensureDomainIdentity(domain: string, projectId: string): Promise<{ dkimTokens: string[]; created: boolean; createdBy: IdentityCreator }>;
  /** Sets the custom MAIL FROM domain (`send.<domain>`). */
  setMailFrom(domain: string, mailFromDomain: string): Promise<void>;
  /** The identity's current state, or undefined if the provider does not know it. */
  getIdentity(identity: string): Promise<IdentityState | undefined>;
  /** Deletes an identity (missing is fine). */
  deleteIdentity(identity: string): Promise<void>;
  /** Creates an address identity tagged for this deployment and `projectId`; the provider mails the owner a verification link. */
  createAddressIdentity(email: string, projectId: string): Promise<void>;
}
