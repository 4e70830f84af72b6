import * as z from '../../platform/core/zod';
import { badRequest, notFound } from '../../platform/core/errors';
import type { Db } from '../../platform/store/client';
import type { Activity } from './activity';
import { htmlToText } from '../../platform/mail/html-text';
import { decodeBody, type ActivityBody } from './activity-body';
import { presentActivity } from './activity-presenter';
import { getActivity, getActivityWithBody } from './activity-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INCLUDE_WORDS = ['events', 'html', 'text', 'headers'];
/** The words of an `include` value: comma-separated, blanks ignored. */
const includeWords = (value: string | undefined): string[] => (value ?? '').split(',').map((w) => w.trim()).filter(Boolean);

/** The query of `GET /v1/activity/{id}`: `include` is `events`, `html`, `text`, `headers`, comma-separated; an unknown word is a 400 naming it. */
export const activityIncludeQuerySchema = z.object({
  include: z.optional(
    z.string().check(
      z.superRefine((value, ctx) => {
        const bad = includeWords(value).find((w) => !INCLUDE_WORDS.includes(w));
        if (bad) ctx.issues.push({ code: 'custom', message: `include accepts events, html, text and headers, comma-separated (got ${bad})`, input: value });
      }),
      z.meta({
        description: 'Comma-separated: `events` (the timeline), `html` (`html_content`), `text` (`text_content`), `headers` (`headers`: From, To, Cc, Reply-To, Subject as sent)',
        examples: ['events,html'],
      }),
    ),
  ),
});

/** What `include` asks for. */
export interface Include {
  events: boolean;
  html: boolean;
  text?: boolean;
  headers?: boolean;
}

/** What an accepted `include` asks for. */
export function toInclude(value: string | undefined): Include {
  const words = includeWords(value);
  return { events: words.includes('events'), html: words.includes('html'), text: words.includes('text'), headers: words.includes('headers') };
}

/** One header of a mail as the API sent it. */
export interface MailHeader {
  name: string;
  value: string;
}

/** The headers the stored body and the record tell: From, To, Cc (when any), Reply-To (when set), Subject. */
export function headersOf(activity: Activity, body: ActivityBody): MailHeader[] {
  const headers: MailHeader[] = [{ name: 'From', value: activity.sender_name ? `${activity.sender_name} <${activity.sender_email}>` : activity.sender_email }];
  headers.push({ name: 'To', value: body.to.join(', ') });
  if (body.cc.length > 0) headers.push({ name: 'Cc', value: body.cc.join(', ') });
  if (body.reply_to) headers.push({ name: 'Reply-To', value: body.reply_to });
  if (activity.subject !== undefined) headers.push({ name: 'Subject', value: activity.subject });
  return headers;
}

/** The activity of an id whose record is not written yet (a batch's mail before its fan-out), if any. */
export type NotYetWritten = (projectId: string, id: string) => Promise<Activity | undefined>;

/** The HTML a queued mail will be sent with, while no worker has claimed it yet (and so stored no body), if it can be told. */
export type QueuedHtml = (projectId: string, activity: Activity) => Promise<string | undefined>;

/** What answers for mails accepted but not yet written or sent (the batches' fan-out, issue 16). */
export interface PendingMail {
  notYetWritten?: NotYetWritten;
  queuedHtml?: QueuedHtml;
  /** Fills in the subject a batch mail's record leaves to its batch (a long one). */
  subjects?: (activities: readonly Activity[]) => Promise<Activity[]>;
}

/**
 * `GET /v1/activity/:id`: the record of the caller's project, or 404 (also for another project's id).
 * `pending` answers for ids accepted but not yet written, and for the HTML of mails not yet sent.
 */
export async function readActivity(db: Db, projectId: string, id: string, include: Include, pending: PendingMail = {}) {
  if (!UUID.test(id)) throw badRequest('id must be a uuid');
  const notHere = () => notFound('Activity not found');
  const withSubject = async (activity: Activity) => (activity.subject === undefined && pending.subjects ? (await pending.subjects([activity]))[0] : activity);
  // The body is written when a worker claims the mail; before, only a resolver can tell its HTML.
  const queuedHtml = async (activity: Activity) =>
    activity.current_status === 'queued' && pending.queuedHtml ? ((await pending.queuedHtml(projectId, activity)) ?? null) : null;
  const derived = async () => {
    const activity = pending.notYetWritten ? await pending.notYetWritten(projectId, id) : undefined;
    if (!activity) throw notHere();
    return presentActivity(activity, {
      events: include.events,
      html: include.html ? await queuedHtml(activity) : undefined,
      // Not written yet: its text and headers are not stored anywhere the API reads.
      text: include.text ? null : undefined,
      headers: include.headers ? null : undefined,
    });
  };
  if (!include.html && !include.events && !include.text && !include.headers) {
    const activity = await getActivity(db, id.toLowerCase());
    if (!activity) return derived();
    if (activity.project_id !== projectId) throw notHere();
    return presentActivity(await withSubject(activity));
  }
  // One Query brings the record, its body and its opens and clicks.
  const { activity, body, engagement } = await getActivityWithBody(db, id.toLowerCase());
  if (!activity) return derived();
  if (activity.project_id !== projectId) throw notHere();
  const withEngagement = include.events ? { ...(await withSubject(activity)), timeline: [...(activity.timeline ?? []), ...engagement] } : await withSubject(activity);
  const stored = body ? decodeBody(body) : undefined;
  const html = include.html ? (stored ? stored.html : await queuedHtml(activity)) : undefined;
  // The text part as sent: the one given, else the one the worker derives from the HTML (deliver-send.ts).
  const text = include.text ? (stored ? (stored.text ?? htmlToText(stored.html)) : null) : undefined;
  const headers = include.headers ? (stored ? headersOf(withEngagement, stored) : null) : undefined;
  return presentActivity(withEngagement, { events: include.events, html, text, headers });
}
