/** Authenticating a console call by its session cookie instead of an Authorization header. */
import { partnerCallerOfHash, projectCallerOfHash, type PartnerCaller, type ProjectCaller } from './authenticate';
import { unauthorized } from '../core/errors';
import type { Clock } from '../core/ports';
import { AUTH_MESSAGES, PARTNER_AUTH_MESSAGES } from '../security/api-keys';
import type { Db } from '../store/client';
import { CONSOLE_HEADER, SESSION_MESSAGES, type ConsoleSession } from './console-session';
import { findSession } from './console-session-repository';
import { sessionTokenHash } from './console-session-cookie';

/** The session of a token if it still holds (not signed out, not expired); else the console's 401. */
export async function liveSession(db: Db, clock: Clock, token: string): Promise<ConsoleSession> {
  const session = await findSession(db, sessionTokenHash(token));
  // DynamoDB deletes expired items some time after their TTL: the expiry is checked here, to the second.
  if (!session || Date.parse(session.expires_at) <= clock.now().getTime()) throw unauthorized(SESSION_MESSAGES.ended);
  return session;
}

/**
 * Who a session's key is: looked up by its hash as an Authorization header's key would be, so a
 * rotated or revoked key ends the session at once.
 */
export function callerOfKey(db: Db, clock: Clock, key: Pick<ConsoleSession, 'key_hash' | 'key_kind' | 'mode'>): Promise<ProjectCaller | PartnerCaller> {
  return key.key_kind === 'project' ? projectCallerOfHash(db, clock, key.key_hash, key.mode ?? 'live') : partnerCallerOfHash(db, key.key_hash);
}

/**
 * The caller a session stands for on a route of `auth`. A project session cannot call partner
 * routes, nor a partner session project routes.
 */
export async function callerOfSession(db: Db, clock: Clock, auth: 'project' | 'partner', token: string): Promise<ProjectCaller | PartnerCaller> {
  const session = await liveSession(db, clock, token);
  if (session.key_kind !== auth) throw unauthorized((auth === 'project' ? AUTH_MESSAGES : PARTNER_AUTH_MESSAGES).missing);
  return callerOfKey(db, clock, session);
}

/** Refuses a cookie request without the console's header: what a cross-site form post would be. */
export function requireConsoleHeader(headers: Readonly<Record<string, string | undefined>>): void {
  if (headers[CONSOLE_HEADER] !== '1') throw unauthorized(SESSION_MESSAGES.header);
}
