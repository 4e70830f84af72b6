import { associateWithProjectTenant } from '../../platform/projects/project-tenant';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import { AppError, conflict, notFound } from '../../platform/core/errors';
import type { SendingDomain } from './domain';
import { publishAll } from './domain-events';
import {
  claimVerifiedDomain,
  domainsDueForCheck,
  findDomainOwner,
  getDomain,
  putVerificationPage,
  saveDomain,
} from './domain-repository';
import { ownershipStatus } from './ownership';
import { MAIL_FROM_LABEL, providerHosts, registrationRecords, withDkimTokens } from './dns-records';
import { nextDomainCheckAt } from './recheck-schedule';
import { ensureDomainSender } from './sender-service';
import { UNKNOWN_IDENTITY, applyProviderState } from './verification-state';
import type { SenderProfile } from './domain';
import type { IdentityCreator } from '../../platform/core/ports';
import type { RegisterInput } from './register-request';

export type { RegisterInput } from './register-request';

/** A registration's outcome: the domain, its sender, and whether an earlier registration was reused. */
export interface Registration {
  domain: SendingDomain;
  sender: SenderProfile;
  reused: boolean;
}

/** The 409 of a domain name that another project verified first. */
function takenElsewhere(domain: string, cause?: unknown) {
  return conflict(`Domain ${domain} is already verified by another sender`, 'DOMAIN_TAKEN', {}, cause);
}

/**
 * The 409 of an identity this project may not change: SES identities are account-wide, and one this
 * deployment did not create (another application's, one made by hand, or an earlier deployment's,
 * left in SES by a destroy) or created for another project is never altered or deleted from here.
 * Only the operator can free the name, in SES: the message says so.
 */
function identityNotOwned(domain: string, createdBy: IdentityCreator, deps: Needs<'config'>) {
  const message =
    createdBy.deployment === deps.config.SES_IDENTITY_OWNER
      ? `Domain ${domain} has a sending identity created for another project; it cannot be changed from this one`
      : `Domain ${domain} already has an SES identity that this deployment did not create (made by hand, by another application, or by an earlier deployment); it cannot be registered or changed here: delete it in SES first, or use another domain`;
  return conflict(message, 'IDENTITY_NOT_OWNED');
}

/** Whether the identity was created by this deployment for this project, the only ones a project may change. */
function ownIdentity(createdBy: IdentityCreator, deps: Needs<'config'>, projectId: string): boolean {
  return createdBy.deployment === deps.config.SES_IDENTITY_OWNER && createdBy.project === projectId;
}

/**
 * Registers a sending domain: creates (or reuses) the SES identity (Easy DKIM, MAIL FROM on
 * `send.<domain>`), the 8 records with this project's own ownership token, and the sender profile.
 * Each project's registration is its own record: registering a name another project has pending
 * neither sees nor touches that registration; only a name another project verified is refused.
 * Every step is idempotent, so registering again reconciles whatever an earlier, interrupted
 * registration left (answered with `reused`).
 */
export async function registerDomain(deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>, projectId: string, input: RegisterInput): Promise<Registration> {
  const { db, clock, identities } = deps;
  const owner = await findDomainOwner(db, input.domain);
  if (owner !== undefined && owner !== projectId) throw takenElsewhere(input.domain);

  const { dkimTokens, createdBy } = await identities.ensureDomainIdentity(input.domain, projectId);
  if (createdBy.deployment !== deps.config.SES_IDENTITY_OWNER) throw identityNotOwned(input.domain, createdBy, deps);
  // A project on its own SES tenant sends only from identities the tenant holds.
  await associateWithProjectTenant(deps, projectId, input.domain);
  // Another project's pending registration of the same name shares its identity read-only: the
  // first project to verify wins the name (checkDomain), and only the creator sets MAIL FROM.
  if (createdBy.project === projectId) await identities.setMailFrom(input.domain, `${MAIL_FROM_LABEL}.${input.domain}`);
  const hosts = providerHosts(deps.config);

  for (let round = 0; round < 3; round++) {
    const now = clock.now();
    const existing = await getDomain(db, projectId, input.domain, true);
    let domain: SendingDomain;
    let saved: boolean;
    if (existing) {
      const tokensChanged = dkimTokens.length > 0 && dkimTokens.join() !== existing.dkim_tokens.join();
      domain = {
        ...existing,
        dkim_tokens: tokensChanged ? dkimTokens : existing.dkim_tokens,
        dns_records: tokensChanged ? withDkimTokens(existing.dns_records, dkimTokens, hosts) : existing.dns_records,
        verification_page_token: existing.verification_page_token ?? pageToken(),
        external_key: existing.external_key ?? input.externalKey,
        version: existing.version + 1,
        updated_at: now.toISOString(),
      };
      saved = await saveDomain(db, domain, existing.version);
    } else {
      const identityId = randomUUID();
      domain = {
        project_id: projectId,
        domain: input.domain,
        identity_id: identityId,
        verification_status: 'pending',
        can_send: false,
        sender_profile_id: '',
        verification_token: randomBytes(32).toString('base64'),
        dkim_tokens: dkimTokens,
        dns_records: registrationRecords({ identityId, token: '', dkimTokens, hosts }),
        verification_page_token: pageToken(),
        external_key: input.externalKey,
        version: 1,
        check_count: 0,
        next_check_at: nextDomainCheckAt(now.toISOString(), now),
        last_checked_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      domain.dns_records[0].value = domain.verification_token;
      const sender = await ensureDomainSender(deps, projectId, input.senderEmail, input.senderName);
      domain.sender_profile_id = sender.id;
      saved = await saveDomain(db, domain, 'new');
    }
    // Another registration of the same domain won the race: reconcile against its record.
    if (!saved) continue;
    await putVerificationPage(db, domain.verification_page_token as string, projectId, domain.domain);
    const sender = await ensureDomainSender(deps, projectId, input.senderEmail, input.senderName);
    return { domain, sender, reused: existing !== undefined };
  }
  throw conflict(`Domain ${input.domain} is being registered concurrently; try again`, 'DOMAIN_BUSY');
}

/** The domain of the project, or 404. */
export async function requireDomain(deps: Needs<'db'>, projectId: string, domain: string): Promise<SendingDomain> {
  const found = await getDomain(deps.db, projectId, domain.toLowerCase(), true);
  if (!found) throw notFound(`Domain ${domain.toLowerCase()} not found`, 'DOMAIN_NOT_FOUND');
  return found;
}

/**
 * Asks the provider about the domain and DNS about this project's ownership token, and applies
 * part 3's state machine. The first project to reach `verified` claims the name with a conditional
 * write; a project that gets there later is refused with 409, and its registration stays pending.
 * `resetSpfAndDmarc` is the verify call's rule (those two wait for the next DNS sweep); the
 * periodic re-check leaves them.
 * The write is conditional on the version read, so a transition and its events happen once even
 * when a verify call and the re-check run together; the loser simply re-reads.
 */
export async function checkDomain(deps: Needs<'db' | 'clock' | 'identities' | 'events' | 'dns'>, projectId: string, name: string, options: { resetSpfAndDmarc: boolean }): Promise<SendingDomain> {
  for (let round = 0; round < 3; round++) {
    const current = await requireDomain(deps, projectId, name);
    const state = (await deps.identities.getIdentity(current.domain)) ?? UNKNOWN_IDENTITY;
    const ownership = await ownershipStatus(deps, current);
    const { next } = applyProviderState(current, state, deps.clock.now(), { ...options, ownership });
    next.version = current.version + 1;
    if (next.verification_status === 'verified' && current.verification_status !== 'verified') {
      // Claimed before the record says verified, so no project is ever verified without owning the name.
      if (!(await claimVerifiedDomain(deps.db, next.domain, projectId))) {
        // The loser keeps its registration, pending and unable to send, and its check schedule moves
        // on (unless another check wrote first: then that one's record stands).
        const lost = applyProviderState(current, state, deps.clock.now(), { ...options, ownership: 'mismatch' }).next;
        await saveDomain(deps.db, { ...lost, version: current.version + 1 }, current.version);
        throw takenElsewhere(next.domain);
      }
    }
    if (!(await saveDomain(deps.db, next, current.version))) continue;
    return flushDomainEvents(deps, next);
  }
  throw conflict(`Domain ${name} is being verified concurrently; try again`, 'DOMAIN_BUSY');
}

/** Publishes a domain's decided events, then clears them (a crash in between republishes, never loses). */
export async function flushDomainEvents(deps: Needs<'db' | 'events'>, domain: SendingDomain): Promise<SendingDomain> {
  if (!domain.pending_events || domain.pending_events.length === 0) return domain;
  await publishAll(deps.events, domain.project_id, domain.pending_events);
  const cleared: SendingDomain = { ...domain, pending_events: undefined, version: domain.version + 1 };
  return (await saveDomain(deps.db, cleared, domain.version)) ? cleared : domain;
}

/**
 * `POST /domains/:domain/recreate`, for DKIM stuck at the provider: deletes the identity and
 * creates it anew, which issues new DKIM tokens. The DKIM records are replaced and the domain goes
 * back to `pending`; a verified domain has nothing to recreate.
 */
export async function recreateDomain(deps: Needs<'config' | 'db' | 'clock' | 'identities' | 'tenants'>, projectId: string, name: string): Promise<SendingDomain> {
  const current = await requireDomain(deps, projectId, name);
  if (current.verification_status === 'verified') {
    throw conflict(`Domain ${current.domain} is verified; there is nothing to recreate`, 'DOMAIN_VERIFIED');
  }
  // The SES identity is account-wide: once another project owns the name, it is theirs to keep.
  const owner = await findDomainOwner(deps.db, current.domain);
  if (owner !== undefined && owner !== projectId) throw takenElsewhere(current.domain);
  const existing = await deps.identities.getIdentity(current.domain);
  if (existing && !ownIdentity(existing.createdBy, deps, projectId)) throw identityNotOwned(current.domain, existing.createdBy, deps);
  await deps.identities.deleteIdentity(current.domain);
  const { dkimTokens } = await deps.identities.ensureDomainIdentity(current.domain, projectId);
  await associateWithProjectTenant(deps, projectId, current.domain);
  await deps.identities.setMailFrom(current.domain, `${MAIL_FROM_LABEL}.${current.domain}`);
  const now = deps.clock.now();
  const next: SendingDomain = {
    ...current,
    verification_status: 'pending',
    can_send: false,
    send_ready_at: undefined,
    dkim_tokens: dkimTokens,
    dns_records: withDkimTokens(current.dns_records, dkimTokens, providerHosts(deps.config)).map((r) =>
      r.purpose === 'dkim' || r.purpose === 'provider_verification' || r.purpose === 'return_path' ? { ...r, status: 'not_set', last_checked_at: null } : r,
    ),
    details: undefined,
    // A new identity gets the day-one rhythm of checks again.
    created_at: current.created_at,
    check_count: 0,
    next_check_at: new Date(now.getTime() + 5 * 60_000).toISOString(),
    version: current.version + 1,
    updated_at: now.toISOString(),
  };
  if (!(await saveDomain(deps.db, next, current.version))) throw conflict(`Domain ${name} changed concurrently; try again`, 'DOMAIN_BUSY');
  return next;
}

/** The scheduled re-check: every domain whose check is due is asked about once. */
export async function recheckDueDomains(deps: Needs<'db' | 'clock' | 'identities' | 'events' | 'dns'>): Promise<number> {
  const due = await domainsDueForCheck(deps.db, deps.clock.now().toISOString());
  for (const d of due) {
    try {
      await checkDomain(deps, d.project_id, d.domain, { resetSpfAndDmarc: false });
    } catch (error) {
      // A name verified elsewhere (409) stays pending here; it must not stop the other checks.
      if (!(error instanceof AppError && error.status === 409)) throw error;
    }
  }
  return due.length;
}

function pageToken(): string {
  return randomBytes(24).toString('base64url');
}
