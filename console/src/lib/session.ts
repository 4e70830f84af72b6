/** The console session: who is signed in, exchanged from a key at sign-in and ended at sign-out. */
import { CONSOLE_HEADER } from './api';

/** A signed-in project key's session. */
export interface ProjectSession {
  readonly kind: 'project';
  readonly mode: 'live' | 'test';
  readonly project: { readonly id: string; readonly name: string; readonly timezone?: string | null };
  readonly expires_at: string;
}

/** A signed-in partner key's session: the organization's projects. */
export interface PartnerSession {
  readonly kind: 'partner';
  readonly organization: { readonly id: string; readonly name?: string | null };
  readonly expires_at: string;
}

export type Session = ProjectSession | PartnerSession;

const headers = { 'content-type': 'application/json', [CONSOLE_HEADER]: '1' };

/** The current session, or undefined when none (no cookie, expired, or its key no longer valid). */
export async function currentSession(): Promise<Session | undefined> {
  const response = await fetch('/console/session', { headers, credentials: 'same-origin' });
  if (response.status === 401) return undefined;
  if (!response.ok) throw new Error(`The session could not be read (${response.status})`);
  return (await response.json()) as Session;
}

/** Exchanges a key for a session cookie; throws the API's message when the key is refused. */
export async function signIn(apiKey: string): Promise<Session> {
  const response = await fetch('/console/session', { method: 'POST', headers, credentials: 'same-origin', body: JSON.stringify({ api_key: apiKey }) });
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Error(body.error ?? `Sign-in failed (${response.status})`);
  return body as unknown as Session;
}

/** Ends the session on the server (its cookie no longer works anywhere) and in this tab. */
export async function signOut(): Promise<void> {
  await fetch('/console/session', { method: 'DELETE', headers, credentials: 'same-origin' });
}
