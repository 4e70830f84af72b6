import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/** Reading the organization's projects, domains, senders and counters. */
export const partnerReadAccess: FunctionAccess = { table: 'read' };

/** A project's overview: its items, and its SES tenant's sending status when it has one. */
export const projectOverviewAccess: FunctionAccess = { table: 'read', sesTenants: 'read' };

/** Putting a project on its own SES tenant: the tenant, its associations, the project item. */
export const sesTenantAccess: FunctionAccess = { table: 'readWrite', sesTenants: 'manage' };

/** Changing a project's own items (its fields, its disabled state, its keys). */
export const partnerWriteAccess: FunctionAccess = { table: 'readWrite' };

/** Resuming a project's marketing: the project item, its paused campaigns, and their engine's `resume` message. */
export const marketingResumeAccess: FunctionAccess = { table: 'readWrite', enqueue: ['campaigns'] };

/**
 * Onboarding a domain: its SES identity (Easy DKIM, MAIL FROM), its records, which name the
 * provider's hosts, and its reply and tracking subdomains.
 */
export const onboardingAccess: FunctionAccess = {
  table: 'readWrite',
  sesIdentities: 'manage',
  sesTenants: 'manage',
  settings: ['RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
};

/** A forced check reads the identity's state from SES and publishes the `domain.*` events of a transition. */
export const verificationAccess: FunctionAccess = { table: 'readWrite', sesIdentities: 'read', enqueue: ['events'] };

/**
 * A magic-link sender creates its address identity; its confirmation link falls back on
 * TRACKING_BASE_URL without a request host. SERVICE_NAME: the sender module also holds the
 * confirmation mail (sent by the scheduled check, not here), and settings follow modules.
 */
export const senderAccess: FunctionAccess = { table: 'readWrite', sesIdentities: 'manage', sesTenants: 'manage', settings: ['TRACKING_BASE_URL', 'SERVICE_NAME'] };
