import { randomUUID } from 'node:crypto';
import { getActivity } from '../activity/activity-repository';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { AppError, badRequest, conflict } from '../../platform/core/errors';
import type { ScheduledSendContent } from '../mail/advanced-send-types';
import { ttlAfterDays, type Db } from '../../platform/store/client';
import { deriveScheduledStatus, presentScheduledSend, type ScheduledSend, type ScheduledSendResource, type ScheduledSendStatus } from './scheduled-send';
import { deferAccept } from '..';
import { cancelPendingScheduledSend, getScheduledSend, moveScheduledSend, putScheduledSend } from './scheduled-send-repository';
import { toRescheduleRequest, timezoneAfterMove, type RescheduleBody } from './scheduled-send-request';

/** What the scheduled-send service needs. */
export type ScheduledSendDeps = Needs<'db' | 'queue' | 'clock' | 'config'>;

/**
 * Largest stored content (JSON): a DynamoDB item holds 400 KB, and the item's other fields and
 * attribute names need some of it.
 */
export const MAX_CONTENT_BYTES = 350_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Stores a pending scheduled send, then the pipeline's deferred accept (deferAccept) queues its
 * fire message at once if it is due within the sweep's lookahead. `scheduledFor` is the caller's to check (part 4.5
 * rule 1): a time already past simply fires at once.
 */
export async function createScheduledSend(
  deps: ScheduledSendDeps,
  caller: ProjectCaller,
  input: { content: ScheduledSendContent; scheduledFor: Date; timezone: string },
): Promise<ScheduledSend> {
  const bytes = Buffer.byteLength(JSON.stringify(input.content));
  if (bytes > MAX_CONTENT_BYTES) {
    throw badRequest(`Scheduled email is too large to store (${Math.ceil(bytes / 1000)} KB of content; at most ${MAX_CONTENT_BYTES / 1000} KB)`);
  }
  const now = deps.clock.now();
  const send: ScheduledSend = {
    id: randomUUID(),
    project_id: caller.project.id,
    mode: caller.mode,
    status: 'pending',
    scheduled_for: input.scheduledFor.toISOString(),
    timezone: input.timezone,
    recipient_email: input.content.recipient,
    sender_email: input.content.sender,
    subject: input.content.subject,
    content: input.content,
    email_id: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    version: 1,
  };
  await putScheduledSend(deps.db, send, expiry(deps, input.scheduledFor));
  await deferAccept(deps, send, now);
  return send;
}

/** `GET /v1/scheduled-sends/:id`: the resource, its status refined by the activity once it fired. */
export async function readScheduledSend(deps: Needs<'db'>, caller: ProjectCaller, rawId: string | undefined): Promise<ScheduledSendResource> {
  const send = await requireScheduledSend(deps.db, caller, rawId);
  return presentScheduledSend(send, await currentStatus(deps.db, send));
}

/**
 * `PATCH /v1/scheduled-sends/:id`: moves a pending send to a new future time (ISO 8601; the body
 * as rescheduleBodySchema accepted it). The write is conditional on `pending`, so a send claimed or
 * cancelled meanwhile answers 409 and stays as it is.
 */
export async function rescheduleScheduledSend(deps: ScheduledSendDeps, caller: ProjectCaller, rawId: string | undefined, body: RescheduleBody): Promise<ScheduledSendResource> {
  const id = parseId(rawId);
  const now = deps.clock.now();
  const request = toRescheduleRequest(body, now);
  const send = await requireScheduledSend(deps.db, caller, id);
  if (send.status !== 'pending') throw notPending(await currentStatus(deps.db, send));
  const result = await moveScheduledSend(deps.db, {
    id,
    projectId: caller.project.id,
    scheduledFor: request.instant.toISOString(),
    timezone: timezoneAfterMove(send.timezone, request),
    now: now.toISOString(),
    ttl: expiry(deps, request.instant),
  });
  if (!result.changed) throw await lostRace(deps.db, caller, id);
  await deferAccept(deps, result.send, now);
  return presentScheduledSend(result.send, 'pending');
}

/** `DELETE /v1/scheduled-sends/:id`: cancels a pending send; a fire message in flight then drops. */
export async function cancelScheduledSend(deps: ScheduledSendDeps, caller: ProjectCaller, rawId: string | undefined): Promise<{ id: string; cancelled: true }> {
  const send = await requireScheduledSend(deps.db, caller, rawId);
  if (send.status !== 'pending') throw notPending(await currentStatus(deps.db, send));
  const cancelled = await cancelPendingScheduledSend(deps.db, send.id, caller.project.id, deps.clock.now().toISOString());
  if (!cancelled) throw await lostRace(deps.db, caller, send.id);
  return { id: send.id, cancelled: true };
}

/** The API status of a stored send; reads the activity only for a send that fired. */
export async function currentStatus(db: Db, send: ScheduledSend): Promise<ScheduledSendStatus> {
  if (send.status !== 'processing') return send.status;
  return deriveScheduledStatus(send.status, await getActivity(db, send.email_id));
}

/** 404 `NOT_FOUND`: a malformed id, an unknown one and another project's are the same answer. */
function scheduledSendNotFound(): AppError {
  return new AppError(404, 'NOT_FOUND', 'NOT_FOUND', { message: 'Scheduled send not found' });
}

/** 409 `NOT_PENDING` with the send's current status. */
function notPending(status: ScheduledSendStatus): AppError {
  return conflict('NOT_PENDING', 'NOT_PENDING', { status, message: `Only a pending scheduled send can be changed; this one is ${status}` });
}

function parseId(rawId: string | undefined): string {
  const id = (rawId ?? '').trim();
  if (!UUID.test(id)) throw scheduledSendNotFound();
  return id.toLowerCase();
}

/** The caller's send; read strongly consistent so that a send scheduled a moment ago is found. */
async function requireScheduledSend(db: Db, caller: ProjectCaller, rawId: string | undefined): Promise<ScheduledSend> {
  const send = await getScheduledSend(db, parseId(rawId), true);
  if (!send || send.project_id !== caller.project.id) throw scheduledSendNotFound();
  return send;
}

/** The 409 of a conditional write that lost to the worker or another request, read afresh. */
async function lostRace(db: Db, caller: ProjectCaller, id: string): Promise<AppError> {
  const send = await getScheduledSend(db, id, true);
  if (!send || send.project_id !== caller.project.id) return scheduledSendNotFound();
  return notPending(await currentStatus(db, send));
}

/** Kept as long as the activity it creates: retention days after its time. */
function expiry(deps: ScheduledSendDeps, scheduledFor: Date): number {
  return ttlAfterDays(scheduledFor, deps.config.ACTIVITY_RETENTION_DAYS);
}
