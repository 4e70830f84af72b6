import { randomUUID } from 'node:crypto';
import type { Services } from '../container';
import { badRequest, conflict, ConditionFailedError } from '../errors';
import { domainOf, isEmail } from '../mail/addresses';
import type { SenderProfile, SendingDomain } from './domain';
import { publishAll } from './domain-events';
import { getDomain } from './domain-repository';
import { nextSenderCheckAt } from './recheck-schedule';
import { getSender, listSenders, saveSender, sendersDueForCheck } from './sender-repository';

/** The sender profile of an address on a registered domain, created on first use (`manual` unless told otherwise). */
export async function ensureDomainSender(deps: Services, projectId: string, email: string, name: string, source: SenderProfile['sender_source'] = 'manual'): Promise<SenderProfile> {
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
  try {
    await saveSender(deps.db, sender, 'new');
    return sender;
  } catch (error) {
    if (error instanceof ConditionFailedError) return (await getSender(deps.db, projectId, email, true)) as SenderProfile;
    throw error;
  }
}

/** A sender as part 2 shows it; `domain_authenticated` and `can_send` come from the domain's state. */
export function presentSender(sender: SenderProfile, domain: SendingDomain | undefined) {
  const domainAuthenticated = domain?.verification_status === 'verified';
  const magicReady = sender.sender_source === 'magic_link' && sender.email_verified;
  return {
    id: sender.id,
    from_name: sender.from_name,
    from_email: sender.from_email,
    domain_authenticated: domainAuthenticated,
    sender_source: sender.sender_source,
    can_send: Boolean(domain?.can_send) || magicReady,
    email_verified: sender.email_verified,
    created_at: sender.created_at,
  };
}

/** Whether mail may go out from `email`, and whether it is signed by the domain's DKIM. */
export async function senderPermission(deps: Services, projectId: string, email: string): Promise<'domain' | 'mailbox' | 'none'> {
  const domain = await getDomain(deps.db, projectId, domainOf(email));
  if (domain?.can_send) return 'domain';
  const sender = await getSender(deps.db, projectId, email);
  return sender?.sender_source === 'magic_link' && sender.email_verified ? 'mailbox' : 'none';
}

/**
 * `POST /domains/verify-email`: verifies one address by mail (magic link). The provider mails the
 * owner a link; the sender is created unverified (`email_verified: false`, no DKIM) and is checked
 * until the owner confirms (`sender.verified`) or the link expires (`sender.failed`).
 */
export async function startMailboxVerification(deps: Services, projectId: string, body: unknown): Promise<SenderProfile> {
  const b = (body ?? {}) as Record<string, unknown>;
  const email = typeof b.email === 'string' ? b.email.trim().toLowerCase() : '';
  const name = typeof b.name === 'string' && b.name.trim() ? b.name.trim() : email.split('@')[0];
  if (!email) throw badRequest('Missing required fields: email');
  if (!isEmail(email)) throw badRequest(`Invalid email: ${email}`);
  const existing = await getSender(deps.db, projectId, email, true);
  if (existing && existing.sender_source !== 'magic_link') {
    throw conflict(`Sender ${email} already exists on a registered domain`, 'SENDER_EXISTS');
  }
  if (existing?.email_verified) return existing;

  await deps.identities.createAddressIdentity(email);
  const now = deps.clock.now();
  const sender: SenderProfile = {
    id: existing?.id ?? randomUUID(),
    project_id: projectId,
    from_name: name,
    from_email: email,
    sender_source: 'magic_link',
    email_verified: false,
    version: (existing?.version ?? 0) + 1,
    check_count: 0,
    next_check_at: nextSenderCheckAt(now.toISOString(), now),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await saveSender(deps.db, sender, existing ? existing.version : 'new');
  return sender;
}

/** Asks the provider whether a magic-link sender's owner confirmed; decides `sender.verified` or `sender.failed` once. */
export async function checkSender(deps: Services, projectId: string, email: string): Promise<SenderProfile | undefined> {
  const current = await getSender(deps.db, projectId, email, true);
  if (!current || current.sender_source !== 'magic_link') return current;
  if (current.email_verified || current.verification_failed) return flushSenderEvents(deps, current);
  const state = await deps.identities.getIdentity(current.from_email);
  const now = deps.clock.now();
  const at = now.toISOString();
  const next: SenderProfile = { ...current, check_count: current.check_count + 1, version: current.version + 1, updated_at: at };
  const events = [...(current.pending_events ?? [])];
  if (state?.verifiedForSending) {
    next.email_verified = true;
    next.next_check_at = undefined;
    events.push({ event: 'sender.verified', timestamp: at, data: { identity_id: current.id, sender_email: current.from_email, can_send: true } });
  } else {
    const expired = nextSenderCheckAt(current.created_at, now) === undefined;
    if (state?.verificationStatus === 'FAILED' || !state || expired) {
      next.verification_failed = true;
      next.next_check_at = undefined;
      events.push({ event: 'sender.failed', timestamp: at, data: { identity_id: current.id, sender_email: current.from_email } });
    } else {
      next.next_check_at = nextSenderCheckAt(current.created_at, now);
    }
  }
  next.pending_events = events.length > 0 ? events : undefined;
  try {
    await saveSender(deps.db, next, current.version);
  } catch (error) {
    if (error instanceof ConditionFailedError) return getSender(deps.db, projectId, email, true);
    throw error;
  }
  return flushSenderEvents(deps, next);
}

async function flushSenderEvents(deps: Services, sender: SenderProfile): Promise<SenderProfile> {
  if (!sender.pending_events || sender.pending_events.length === 0) return sender;
  await publishAll(deps.events, sender.project_id, sender.pending_events);
  const cleared = { ...sender, pending_events: undefined, version: sender.version + 1 };
  try {
    await saveSender(deps.db, cleared, sender.version);
    return cleared;
  } catch (error) {
    if (error instanceof ConditionFailedError) return sender;
    throw error;
  }
}

/** The scheduled check of magic-link senders still waiting for their owners. */
export async function recheckDueSenders(deps: Services): Promise<number> {
  const due = await sendersDueForCheck(deps.db, deps.clock.now().toISOString());
  for (const s of due) await checkSender(deps, s.project_id, s.from_email);
  return due.length;
}

/** The project's sender profile with this id (a project has few senders). */
export async function findSenderById(deps: Services, projectId: string, id: string): Promise<SenderProfile | undefined> {
  return (await listSenders(deps.db, projectId)).find((s) => s.id === id);
}
