import { associateWithProjectTenant } from '../../platform/projects/project-tenant';
import { randomUUID } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import { concurrentChange, conflict } from '../../platform/core/errors';
import type { VerifyEmailInput } from './verify-email-request';
import type { SenderProfile, SendingDomain } from './domain';
import { publishAll } from './domain-events';
import { nextSenderCheckAt } from './recheck-schedule';
import { findSenderConfirmation, getSender, listSenders, putSenderConfirmation, saveSender, sendersDueForCheck } from './sender-repository';
import { CONFIRM_TOKEN, newConfirmationToken, sendSenderConfirmation } from './sender-confirmation';
import { refuseDisabledProject } from '../../platform/projects/project-active';
import { getProject } from '../../platform/projects/project-repository';
import type { Project } from '../../platform/projects/project';
import { mailboxConfirmed } from './sender-lookup';
import { domainOf } from '../../platform/mail/addresses';

// Kept apart (sender-lookup.ts) so that callers that only check a sender do not load this module's mail sending.
export { findSenderById, mailboxConfirmed, senderPermission } from './sender-lookup';

/** The sender profile of an address on a registered domain, created on first use (`manual` unless told otherwise). */
export async function ensureDomainSender(deps: Needs<'db' | 'clock'>, projectId: string, email: string, name: string, source: SenderProfile['sender_source'] = 'manual'): Promise<SenderProfile> {
  const existing = await getSender(deps.db, projectId, email, true);
  if (existing) return existing;
  const now = deps.clock.now().toISOString();
  const sender: SenderProfile = {
    id: randomUUID(),
    project_id: projectId,
    from_name: name,
    from_email: email.toLowerCase(),
    sender_source: source,
    email_verified: true,
    version: 1,
    check_count: 0,
    created_at: now,
    updated_at: now,
  };
  if (await saveSender(deps.db, sender, 'new')) return sender;
  return (await getSender(deps.db, projectId, email, true)) as SenderProfile;
}

/** A sender as part 2 shows it; `domain_authenticated` and `can_send` come from the domain's state. */
export function presentSender(sender: SenderProfile, domain: SendingDomain | undefined) {
  const domainAuthenticated = domain?.verification_status === 'verified';
  const magicReady = mailboxConfirmed(sender);
  return {
    id: sender.id,
    from_name: sender.from_name,
    from_email: sender.from_email,
    domain_authenticated: domainAuthenticated,
    sender_source: sender.sender_source,
    can_send: Boolean(domain?.can_send) || magicReady,
    email_verified: sender.sender_source === 'magic_link' ? magicReady : sender.email_verified,
    created_at: sender.created_at,
  };
}

/**
 * `POST /domains/verify-email`: verifies one address by mail, for this project. Two proofs are
 * needed, because SES identities are account-wide: SES mails its own link (once per address, for
 * the whole account), and once SES has the address verified the scheduled check mails this
 * project's own link; only following that one makes the sender verified here (`sender.verified`).
 * An address another project already confirmed therefore gets just this project's link, and its
 * owner decides. A disabled project may not make mail leave (403).
 */
export async function startMailboxVerification(deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>, project: Project, { email, name }: VerifyEmailInput, baseUrl: string | undefined): Promise<SenderProfile> {
  refuseDisabledProject(project);
  const existing = await getSender(deps.db, project.id, email, true);
  if (existing && existing.sender_source !== 'magic_link') {
    throw conflict(`Sender ${email} already exists on a registered domain`, 'SENDER_EXISTS');
  }
  if (existing && mailboxConfirmed(existing)) return existing;

  const identity = await deps.identities.getIdentity(email);
  if (!identity?.verifiedForSending) await deps.identities.createAddressIdentity(email, project.id);
  await associateWithProjectTenant(deps, project.id, email);
  const now = deps.clock.now();
  const sender: SenderProfile = {
    id: existing?.id ?? randomUUID(),
    project_id: project.id,
    from_name: name,
    from_email: email,
    sender_source: 'magic_link',
    email_verified: false,
    confirmation_token: newConfirmationToken(),
    confirmation_base_url: baseUrl ?? deps.config.TRACKING_BASE_URL ?? '',
    version: (existing?.version ?? 0) + 1,
    check_count: 0,
    next_check_at: nextSenderCheckAt(now.toISOString(), now),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  // The link goes out from the scheduled check (the one function allowed to send it), the next
  // one when SES already has the address verified.
  if (identity?.verifiedForSending) sender.next_check_at = now.toISOString();
  await putSenderConfirmation(deps.db, sender.confirmation_token as string, project.id, email);
  if (!(await saveSender(deps.db, sender, existing ? existing.version : 'new'))) throw concurrentChange();
  return sender;
}

/**
 * The scheduled check of a magic-link sender: once SES has the address verified, mails this
 * project's own confirmation link (once; not for a disabled project); decides `sender.failed` when
 * SES fails the address or the request expires. `sender.verified` is never decided here.
 */
export async function checkSender(deps: Needs<'config' | 'db' | 'mailer' | 'clock' | 'identities' | 'events'>, projectId: string, email: string): Promise<SenderProfile | undefined> {
  const current = await getSender(deps.db, projectId, email, true);
  if (!current || current.sender_source !== 'magic_link') return current;
  if (mailboxConfirmed(current) || current.verification_failed) return flushSenderEvents(deps, current);
  const state = await deps.identities.getIdentity(current.from_email);
  const now = deps.clock.now();
  const at = now.toISOString();
  const next: SenderProfile = { ...current, check_count: current.check_count + 1, version: current.version + 1, updated_at: at };
  const events = [...(current.pending_events ?? [])];
  const expired = nextSenderCheckAt(current.created_at, now) === undefined;
  if (state?.verificationStatus === 'FAILED' || !state || expired) {
    next.verification_failed = true;
    next.next_check_at = undefined;
    events.push({ event: 'sender.failed', timestamp: at, data: { identity_id: current.id, sender_email: current.from_email } });
  } else {
    next.next_check_at = nextSenderCheckAt(current.created_at, now);
    if (state.verifiedForSending && !current.confirmation_sent_at && current.confirmation_token) {
      const project = await getProject(deps.db, projectId);
      if (project && !project.disabled_at) {
        await sendSenderConfirmation(deps, current, project);
        next.confirmation_sent_at = at;
      }
    }
  }
  next.pending_events = events.length > 0 ? events : undefined;
  if (!(await saveSender(deps.db, next, current.version))) return getSender(deps.db, projectId, email, true);
  return flushSenderEvents(deps, next);
}

/** The sender a confirmation link still confirms (well formed, current, not failed or expired), or undefined. */
export async function senderOfConfirmationLink(deps: Needs<'db'>, token: string | undefined): Promise<SenderProfile | undefined> {
  if (!token || !CONFIRM_TOKEN.test(token)) return undefined;
  const found = await findSenderConfirmation(deps.db, token);
  if (!found) return undefined;
  const sender = await getSender(deps.db, found.project_id, found.email, true);
  const current = sender?.sender_source === 'magic_link' && sender.confirmation_token === token && !sender.verification_failed;
  return current ? sender : undefined;
}

/**
 * Follows a project's own confirmation link: the sender becomes verified for that project alone
 * and `sender.verified` is decided once. Undefined when the link is unknown, replaced by a newer
 * request, or its request failed or expired.
 */
export async function confirmSender(deps: Needs<'db' | 'clock' | 'events'>, token: string | undefined): Promise<SenderProfile | undefined> {
  for (let round = 0; round < 3; round++) {
    const current = await senderOfConfirmationLink(deps, token);
    if (!current || mailboxConfirmed(current)) return current;
    const at = deps.clock.now().toISOString();
    const next: SenderProfile = {
      ...current,
      email_verified: true,
      confirmed_at: at,
      next_check_at: undefined,
      pending_events: [
        ...(current.pending_events ?? []),
        { event: 'sender.verified', timestamp: at, data: { identity_id: current.id, sender_email: current.from_email, can_send: true } },
      ],
      version: current.version + 1,
      updated_at: at,
    };
    if (!(await saveSender(deps.db, next, current.version))) continue;
    return flushSenderEvents(deps, next);
  }
  throw conflict('The sender is being confirmed concurrently; try again', 'SENDER_BUSY');
}

async function flushSenderEvents(deps: Needs<'db' | 'events'>, sender: SenderProfile): Promise<SenderProfile> {
  if (!sender.pending_events || sender.pending_events.length === 0) return sender;
  await publishAll(deps.events, sender.project_id, sender.pending_events);
  const cleared = { ...sender, pending_events: undefined, version: sender.version + 1 };
  return (await saveSender(deps.db, cleared, sender.version)) ? cleared : sender;
}

/** The scheduled check of magic-link senders still waiting for their owners. */
export async function recheckDueSenders(deps: Needs<'config' | 'db' | 'mailer' | 'clock' | 'identities' | 'events'>): Promise<number> {
  const due = await sendersDueForCheck(deps.db, deps.clock.now().toISOString());
  for (const s of due) await checkSender(deps, s.project_id, s.from_email);
  return due.length;
}

/** The project's senders on one domain (a project has a handful: one small query, filtered here). */
export async function sendersOnDomain(deps: Needs<'db'>, projectId: string, domain: string): Promise<SenderProfile[]> {
  return (await listSenders(deps.db, projectId)).filter((s) => domainOf(s.from_email) === domain);
}
