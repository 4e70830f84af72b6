/** Signing in to the console, reading the session, signing out. */
import { getOrganization } from '../../platform/organizations/organization-repository';
import { AUTH_MESSAGES, PREFIX_KINDS, parseAuthorization } from '../../platform/security/api-keys';
import { badRequest, unauthorized } from '../../platform/core/errors';
import type { Clock } from '../../platform/core/ports';
import type { Db } from '../../platform/store/client';
import type { PartnerCaller, ProjectCaller } from '../../platform/auth/authenticate';
import { SESSION_SECONDS, type ConsoleSession } from '../../platform/auth/console-session';
import type { ConsoleSessionAnswer } from './session-answers';
import { deleteSession, putSession } from '../../platform/auth/console-session-repository';
import { callerOfKey, liveSession } from '../../platform/auth/console-session-auth';
import { newSessionToken, sessionTokenHash } from '../../platform/auth/console-session-cookie';

/** Which kind of key a text is, by its prefix; part 5's 401 when it is no key. */
function keyKindOf(apiKey: string): 'project' | 'partner' {
  const prefix = /^sk_[a-z]+_/.exec(apiKey)?.[0];
  const kind = prefix ? PREFIX_KINDS[prefix] : undefined;
  if (!kind) throw unauthorized(AUTH_MESSAGES.badPrefix);
  return kind.kind;
}

/** The answer that says who a session is. */
async function describe(db: Db, caller: ProjectCaller | PartnerCaller, expiresAt: string): Promise<ConsoleSessionAnswer> {
  if (caller.kind === 'project') {
    const { project } = caller;
    return { kind: 'project', mode: caller.mode, project: { id: project.id, name: project.name, timezone: project.timezone ?? null }, expires_at: expiresAt };
  }
  const organization = await getOrganization(db, caller.organizationId);
  return { kind: 'partner', organization: { id: caller.organizationId, name: organization?.name ?? null }, expires_at: expiresAt };
}

/**
 * Checks a key as its Authorization header would be checked, then stores a session holding only
 * the key's hash; answers the new token (for the cookie) and who it is.
 */
export async function signIn(db: Db, clock: Clock, apiKey: string): Promise<{ token: string; session: ConsoleSessionAnswer }> {
  if (apiKey.trim() === '') throw badRequest('Missing required field: api_key');
  const kind = keyKindOf(apiKey.trim());
  const parsed = parseAuthorization(`Bearer ${apiKey.trim()}`, kind);
  const key = { key_hash: parsed.hash, key_kind: parsed.kind.kind, ...(parsed.kind.kind === 'project' ? { mode: parsed.kind.mode } : {}) };
  const caller = await callerOfKey(db, clock, key);
  const now = clock.now();
  const stored: ConsoleSession = {
    ...key,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_SECONDS * 1000).toISOString(),
  };
  const { token, hash } = newSessionToken();
  await putSession(db, hash, stored);
  return { token, session: await describe(db, caller, stored.expires_at) };
}

/** Who a session token stands for, or the console's 401 when it has ended or its key no longer works. */
export async function readSession(db: Db, clock: Clock, token: string): Promise<ConsoleSessionAnswer> {
  const session = await liveSession(db, clock, token);
  return describe(db, await callerOfKey(db, clock, session), session.expires_at);
}

/** Ends a session wherever its cookie is (sign-out). */
export async function signOut(db: Db, token: string): Promise<void> {
  await deleteSession(db, sessionTokenHash(token));
}
