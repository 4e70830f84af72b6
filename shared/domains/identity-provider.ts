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
}

/** Sending identities at the provider: domains with Easy DKIM and a custom MAIL FROM, and single addresses. */
export interface IdentityProvider {
  /** Creates a domain identity with Easy DKIM, or returns the existing one's tokens (reconciliation). */
  ensureDomainIdentity(domain: string): Promise<{ dkimTokens: string[]; created: boolean }>;
  /** Sets the custom MAIL FROM domain (`send.<domain>`). */
  setMailFrom(domain: string, mailFromDomain: string): Promise<void>;
  /** The identity's current state, or undefined if the provider does not know it. */
  getIdentity(identity: string): Promise<IdentityState | undefined>;
  /** Deletes an identity (missing is fine). */
  deleteIdentity(identity: string): Promise<void>;
  /** Creates an address identity; the provider mails the owner a verification link. */
  createAddressIdentity(email: string): Promise<void>;
}
