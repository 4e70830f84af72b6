import { badRequest, notFound } from '../errors';
import type { Db } from '../store/client';
import type { Activity } from './activity';
import { decodeBody } from './activity-body';
import { presentActivity } from './activity-presenter';
import { getActivity, getActivityWithBody } from './activity-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses `include` (`events`, `html`, or both comma-separated); unknown words are a 400. */
export function parseInclude(value: string | undefined): { events: boolean; html: boolean } {
  const words = (value ?? '').split(',').map((w) => w.trim()).filter(Boolean);
  const bad = words.find((w) => w !== 'events' && w !== 'html');
  if (bad) throw badRequest(`include accepts events, html or events,html (got ${bad})`);
  return { events: words.includes('events'), html: words.includes('html') };
}

/** The activity of an id whose record is not written yet (a batch's mail before its fan-out), if any. */
export type NotYetWritten = (projectId: string, id: string) => Promise<Activity | undefined>;

/**
 * `GET /v1/activity/:id`: the record of the caller's project, or 404 (also for another project's id).
 * `notYetWritten` answers for ids accepted but not yet written (the batches' fan-out, issue 16).
 */
export async function readActivity(
  db: Db,
  projectId: string,
  id: string,
  include: { events: boolean; html: boolean },
  notYetWritten: NotYetWritten = async () => undefined,
) {
  if (!UUID.test(id)) throw badRequest('id must be a uuid');
  const notHere = () => notFound('Activity not found');
  const derived = async () => {
    const activity = await notYetWritten(projectId, id);
    if (!activity) throw notHere();
    return presentActivity(activity, { events: include.events, html: include.html ? null : undefined });
  };
  if (!include.html && !include.events) {
    const activity = await getActivity(db, id.toLowerCase());
    if (!activity) return derived();
    if (activity.project_id !== projectId) throw notHere();
    return presentActivity(activity);
  }
  // One Query brings the record, its body and its opens and clicks.
  const { activity, body, engagement } = await getActivityWithBody(db, id.toLowerCase());
  if (!activity) return derived();
  if (activity.project_id !== projectId) throw notHere();
  const withEngagement = include.events ? { ...activity, timeline: [...(activity.timeline ?? []), ...engagement] } : activity;
  // The body is written when the worker takes the mail; until then there is no HTML to show.
  const html = include.html ? (body ? decodeBody(body).html : null) : undefined;
  return presentActivity(withEngagement, { events: include.events, html });
}
