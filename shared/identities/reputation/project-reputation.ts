/**
 * The reputation watch (docs/deliverability.md): each project's permanent-bounce and complaint
 * rates, from the hourly live counters GET /v1/stats reads (no counter of its own), against a
 * warning level below SES's review thresholds. Above it the project's marketing mail pauses
 * itself (campaigns, marketing batches, automations' marketing sends) until an operator resumes;
 * transactional mail goes on.
 */
import type { Needs } from '../../platform/core/dependencies';
import type { ServiceEvent } from '../../platform/core/events';
import { logger } from '../../platform/core/logger';
import type { MarketingPause, Project } from '../../platform/projects/project';
import { getProject, markMarketingPauseAnnounced, pauseProjectMarketing, resumeProjectMarketing } from '../../platform/projects/project-repository';
import { tenantStatus } from '../../platform/projects/project-tenant';
import { hourOf } from '../stats/domain-stats';
import { readProjectHours } from '../stats/project-stats';
import { MIN_RATE_SAMPLE, SES_THRESHOLDS } from '../stats/ses-thresholds';

/** The window the rates are measured over: SES judges an account on its recent mail, not one day's. */
export const REPUTATION_WINDOW_HOURS = 7 * 24;

/** Fewer live mails than this in the window and the rates mean too little to pause on (the campaign guard's sample). */
export const REPUTATION_MIN_SAMPLE = MIN_RATE_SAMPLE;

/**
 * The warning levels, as fractions: 80% of SES's review thresholds (5% permanent bounces, 0.1%
 * complaints), so marketing stops before the account is put under review.
 */
export const MARKETING_PAUSE_LEVELS = { bounce: 0.04, complaint: 0.0008 } as const;

/** A project's rates over the window, with the levels they are held to. */
export interface ReputationReading {
  since: string;
  sent: number;
  bounced: number;
  complained: number;
  bounce_rate: number;
  complaint_rate: number;
}

const HOUR_MS = 3_600_000;

/** A rate as a fraction with six decimals; 0 when nothing was sent. */
const rate = (n: number, of: number): number => (of > 0 ? Math.round((n / of) * 1_000_000) / 1_000_000 : 0);

/**
 * The start of the window at `now`: the last REPUTATION_WINDOW_HOURS hours, or from the hour of the
 * operator's last resume when later (what came before it was acknowledged, or the watch would pause
 * again at the next bounce).
 */
export function windowStart(project: Pick<Project, 'marketing_resumed_at'>, now: Date): Date {
  const start = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (REPUTATION_WINDOW_HOURS - 1) * HOUR_MS);
  if (!project.marketing_resumed_at) return start;
  const resumed = new Date(Math.floor(new Date(project.marketing_resumed_at).getTime() / HOUR_MS) * HOUR_MS);
  return resumed > start ? resumed : start;
}

/**
 * The project's live rates over its window, from the hourly counters (one Query per counter shard);
 * in the hour of the last resume, only what came after it.
 */
export async function readReputation(
  deps: Needs<'db'>,
  project: Pick<Project, 'id' | 'marketing_resumed_at' | 'marketing_resume_baseline'>,
  now: Date,
): Promise<ReputationReading> {
  const since = windowStart(project, now);
  const hours = await readProjectHours(deps.db, project.id, 'live', hourOf(since), hourOf(now));
  const baseline = project.marketing_resumed_at && hourOf(project.marketing_resumed_at) === hourOf(since) ? project.marketing_resume_baseline : undefined;
  let sent = -(baseline?.sent ?? 0);
  let bounced = -(baseline?.bounced ?? 0);
  let complained = -(baseline?.complained ?? 0);
  for (const counts of hours.values()) {
    sent += counts.sent;
    bounced += counts.bounced;
    complained += counts.complained;
  }
  // Counters lost by a crashed worker could leave the hour below its baseline.
  sent = Math.max(0, sent);
  bounced = Math.max(0, bounced);
  complained = Math.max(0, complained);
  return { since: since.toISOString(), sent, bounced, complained, bounce_rate: rate(bounced, sent), complaint_rate: rate(complained, sent) };
}

/** Why the project's marketing must pause, or undefined while within the levels or below the sample. */
export function marketingPauseVerdict(reading: ReputationReading): Omit<MarketingPause, 'at'> | undefined {
  if (reading.sent < REPUTATION_MIN_SAMPLE) return undefined;
  const common = { sample: reading.sent, since: reading.since };
  if (reading.bounce_rate >= MARKETING_PAUSE_LEVELS.bounce) return { reason: 'bounce_rate', rate: reading.bounce_rate, threshold: MARKETING_PAUSE_LEVELS.bounce, ...common };
  if (reading.complaint_rate >= MARKETING_PAUSE_LEVELS.complaint) return { reason: 'complaint_rate', rate: reading.complaint_rate, threshold: MARKETING_PAUSE_LEVELS.complaint, ...common };
  return undefined;
}

/** A sentence a person can act on, for the pause's reason. */
export function pauseExplanation(pause: MarketingPause): string {
  const percent = (f: number) => `${Math.round(f * 100_000) / 1000}%`;
  const what = pause.reason === 'bounce_rate' ? 'permanent-bounce rate' : 'complaint rate';
  const review = pause.reason === 'bounce_rate' ? SES_THRESHOLDS.bounce.review : SES_THRESHOLDS.complaint.review;
  return (
    `Marketing mail is paused since ${pause.at}: the ${what} was ${percent(pause.rate)} over ${pause.sample} mails since ${pause.since}, ` +
    `above the ${percent(pause.threshold)} warning level (SES reviews an account at ${percent(review)}). ` +
    'Transactional mail still goes out. Clean the list, then resume marketing (POST /v1/partner/projects/{projectId}/marketing/resume).'
  );
}

/** The `project.marketing_paused` webhook event. */
export function marketingPausedEvent(projectId: string, pause: MarketingPause): ServiceEvent {
  const { at, ...measured } = pause;
  return { event: 'project.marketing_paused', timestamp: at, project_id: projectId, data: { ...measured, paused_at: at, message: pauseExplanation(pause) } };
}

/**
 * An operator resumes the project's marketing: the pause goes and the watch measures from now on
 * (the resume hour's counts so far are its baseline). Answers the project as it was, or undefined.
 */
export async function resumeMarketing(deps: Needs<'db' | 'clock'>, projectId: string): Promise<{ before: Project | undefined; at: string }> {
  const now = deps.clock.now();
  const hour = hourOf(now);
  const counts = (await readProjectHours(deps.db, projectId, 'live', hour, hour)).get(hour);
  const baseline = { sent: counts?.sent ?? 0, bounced: counts?.bounced ?? 0, complained: counts?.complained ?? 0 };
  const at = now.toISOString();
  return { before: await resumeProjectMarketing(deps.db, projectId, at, baseline), at };
}

/** The reputation block of `/domains/health` and the partner project's `health`. */
export async function projectReputation(
  deps: Needs<'db' | 'clock' | 'tenants'>,
  project: Pick<Project, 'id' | 'marketing_pause' | 'marketing_resumed_at' | 'marketing_resume_baseline' | 'ses_tenant'>,
) {
  const [reading, tenant] = await Promise.all([readReputation(deps, project, deps.clock.now()), tenantStatus(deps, project)]);
  const { since, sent, bounced, complained, bounce_rate, complaint_rate } = reading;
  const pause = project.marketing_pause;
  const issues = pause ? [pauseExplanation(pause)] : [];
  if (!pause && sent >= REPUTATION_MIN_SAMPLE && bounce_rate >= MARKETING_PAUSE_LEVELS.bounce / 2) {
    issues.push(`The permanent-bounce rate is ${Math.round(bounce_rate * 100_000) / 1000}% over ${sent} mails since ${since}; marketing pauses itself at ${MARKETING_PAUSE_LEVELS.bounce * 100}%.`);
  }
  if (!pause && sent >= REPUTATION_MIN_SAMPLE && complaint_rate >= MARKETING_PAUSE_LEVELS.complaint / 2) {
    issues.push(`The complaint rate is ${Math.round(complaint_rate * 100_000) / 1000}% over ${sent} mails since ${since}; marketing pauses itself at ${MARKETING_PAUSE_LEVELS.complaint * 100}%.`);
  }
  if (tenant?.sending_status === 'DISABLED') {
    issues.unshift(`SES has disabled sending for this project's tenant ${tenant.name}: none of its mail goes out. Check the tenant's reputation findings in the SES console.`);
  }
  return {
    ses_tenant: tenant,
    marketing_paused: Boolean(pause),
    pause: pause ? { ...pause, message: pauseExplanation(pause) } : null,
    window: { since, sent, bounced, complained, bounce_rate, complaint_rate },
    levels: {
      min_sample: REPUTATION_MIN_SAMPLE,
      bounce_pause: MARKETING_PAUSE_LEVELS.bounce,
      complaint_pause: MARKETING_PAUSE_LEVELS.complaint,
      bounce_review: SES_THRESHOLDS.bounce.review,
      complaint_review: SES_THRESHOLDS.complaint.review,
    },
    issues,
  };
}

/** How long a warm worker leaves a project it checked alone: a bounce storm costs one check a minute, not one per batch. */
export const CHECK_INTERVAL_MS = 60_000;

/** When each project was last checked by this instance (module scope: it outlives one invocation). */
const lastChecked = new Map<string, number>();

/** Forgets when projects were checked (tests). */
export function forgetReputationChecks(): void {
  lastChecked.clear();
}

/** The projects a batch of counter increments gives a reason to check: those with a permanent bounce or a complaint. */
export function projectsToWatch(totals: ReadonlyMap<string, Partial<Record<'hard_bounced' | 'complained', number>>>): string[] {
  return [...totals].filter(([, t]) => (t.hard_bounced ?? 0) > 0 || (t.complained ?? 0) > 0).map(([projectId]) => projectId);
}

/**
 * Checks each project against the levels and pauses its marketing when one is passed: the pause is
 * conditional, so of two workers that see it at once one publishes the webhook. A pause whose event
 * did not go out (a crash between the two) is announced at the next check. Never throws: the events
 * are recorded whatever happens here, and the next bounce checks again.
 */
export async function watchReputation(deps: Needs<'db' | 'clock' | 'events'>, projectIds: Iterable<string>): Promise<void> {
  for (const projectId of projectIds) {
    const checked = lastChecked.get(projectId);
    if (checked !== undefined && Date.now() - checked < CHECK_INTERVAL_MS) continue;
    lastChecked.set(projectId, Date.now());
    try {
      const project = await getProject(deps.db, projectId, true);
      if (!project || project.disabled_at) continue;
      if (project.marketing_pause) {
        if (project.marketing_pause_announced !== project.marketing_pause.at) await announcePause(deps, projectId, project.marketing_pause);
        continue;
      }
      const now = deps.clock.now();
      const verdict = marketingPauseVerdict(await readReputation(deps, project, now));
      if (!verdict) continue;
      const pause: MarketingPause = { ...verdict, at: now.toISOString() };
      if (!(await pauseProjectMarketing(deps.db, projectId, pause))) continue;
      logger.warn('Marketing paused by the reputation watch', { projectId, ...pause });
      await announcePause(deps, projectId, pause);
    } catch (error) {
      logger.error('Reputation watch failed', { projectId, error: error as Error });
    }
  }
}

/** Publishes the pause's `project.marketing_paused` event, then notes it went out (a crash between the two publishes the same event again at the next check). */
async function announcePause(deps: Needs<'db' | 'events'>, projectId: string, pause: MarketingPause): Promise<void> {
  await deps.events.publish(marketingPausedEvent(projectId, pause));
  await markMarketingPauseAnnounced(deps.db, projectId, pause.at);
}
