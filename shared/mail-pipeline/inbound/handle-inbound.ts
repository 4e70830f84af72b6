import { getActivity } from '../activity/activity-repository';
import { dmarcIdentityOf, ingestDmarcMail, isReportsAddress, type DmarcIntakeResult } from '../../identities/dmarc/dmarc-intake';
import type { Needs } from '../../platform/core/dependencies';
import { isApiSend } from '../events/email-events';
import { logger } from '../../platform/core/logger';
import type { BlobStore } from '../../platform/core/ports';
import { getProject } from '../../platform/projects/project-repository';
import { webhookTargets } from '../../platform/projects/webhook-routing';
import { inboundEvent } from './inbound-event';
import {
  MAX_INBOUND_BYTES,
  isAutomatic,
  matchReplyToken,
  parseHeaders,
  parseMail,
  readReply,
  recipientAddresses,
  replyCandidates,
  sesVerdict,
} from './inbound-mail';
import { claimInboundMail, releaseInboundMail } from './inbound-repository';
import { undeliverableMail } from './undeliverable';

/** What the inbound function needs: the shared services (the token secret among them) and the inbound bucket. */
export interface InboundDeps extends Needs<'db' | 'mailer' | 'events' | 'clock' | 'config' | 'tokenSecret'>, Partial<Needs<'dns'>> {
  /** Objects of the inbound bucket (where the SES receipt rule stores each mail). */
  readonly inboundMail: BlobStore;
  /** That bucket's name: records of any other bucket are ignored. */
  readonly inboundBucket: string;
}

/** One object of an S3 ObjectCreated event. */
export interface InboundObject {
  bucket: string;
  key: string;
  /** Size from the event; the size of the object read is what counts. */
  size?: number;
  /** When S3 stored it (the event time); defaults to now. */
  receivedAt?: string;
}

/** What became of one inbound mail; everything but `published` and `bounced` publishes and sends nothing. */
export type InboundOutcome =
  /** email.inbound published for rule 4's single URL. */
  | 'published'
  /** Over 150 KB: the sender was sent an "Undeliverable" mail. */
  | 'bounced'
  /** Over 150 KB, but automatic mail (or no sender) gets no answer. */
  | 'dropped_oversize'
  /** Handled before: a redelivered S3 event. */
  | 'duplicate'
  /** No reply address among the recipients. */
  | 'no_token'
  /** A reply address whose signature does not verify (tampered, or signed with another secret). */
  | 'bad_token'
  /** The token verifies but names no (longer) existing activity. */
  | 'unknown_activity'
  /** The activity is a campaign or automation mail, whose replies are not posted. */
  | 'not_api_send'
  /** The project has no URL that rule 4 could pick. */
  | 'no_target'
  /** SES's virus scan failed the mail. */
  | 'virus'
  /** The event named another bucket. */
  | 'other_bucket'
  /** A mail to a DMARC reports address (`d-<identity_id>@`): handed to the DMARC intake, never treated as a reply. */
  | 'dmarc_report';

export interface InboundResult {
  key: string;
  outcome: InboundOutcome;
  activity_id?: string;
  /** What the DMARC intake made of a report mail. */
  dmarc?: DmarcIntakeResult;
}

/**
 * Handles one mail stored by the SES receipt rule: reads it, finds and verifies the Reply-To token
 * among its recipients, loads the original activity, then either bounces a reply over 150 KB or
 * publishes ONE `email.inbound` for the activity's project (the fan-out then delivers it to rule
 * 4's single URL, in a single attempt). The S3 key is the deduplication key: a marker item written
 * conditionally before the publish or bounce makes a redelivered event do nothing. A mail to a
 * DMARC reports address (`d-<identity_id>@` the reports domain) goes to the DMARC report intake
 * instead (shared/identities/dmarc), which drops duplicates by report.
 */
export async function handleInboundObject(deps: InboundDeps, object: InboundObject): Promise<InboundResult> {
  const { key } = object;
  const log = (outcome: InboundOutcome, extra: Record<string, unknown> = {}): InboundResult => {
    logger.info('Inbound mail', { key, outcome, ...extra });
    return { key, outcome, ...(typeof extra.activity_id === 'string' ? { activity_id: extra.activity_id } : {}) };
  };
  if (object.bucket !== deps.inboundBucket) return log('other_bucket', { bucket: object.bucket });

  const raw = await deps.inboundMail.get(key);
  const oversize = raw.length > MAX_INBOUND_BYTES;
  // A mail over the limit is never parsed whole: its headers say all a bounce needs.
  const mail = oversize ? await parseHeaders(raw) : await parseMail(raw);
  if (sesVerdict(mail, 'virus') === 'FAIL') return log('virus');

  const recipients = recipientAddresses(mail.headerLines);
  // The reports domain is the inbound domain unless the operator gave one of its own.
  const reportsDomain = deps.config.DMARC_REPORTS_DOMAIN ?? deps.config.INBOUND_DOMAIN;
  if (isReportsAddress(recipients, reportsDomain)) {
    const dmarc = await ingestDmarcMail(deps, { identityId: dmarcIdentityOf(recipients, reportsDomain), raw, objectKey: key });
    return { key, outcome: 'dmarc_report', dmarc };
  }
  const match = matchReplyToken(recipients, await deps.tokenSecret());
  if (!match) {
    // Also what becomes of SES's own set-up object (AMAZON_SES_SETUP_NOTIFICATION) under the prefix.
    return replyCandidates(recipients).length > 0 ? log('bad_token', { recipients: replyCandidates(recipients) }) : log('no_token');
  }
  const activity = await getActivity(deps.db, match.activityId);
  if (!activity) return log('unknown_activity', { activity_id: match.activityId });
  if (!isApiSend(activity)) return log('not_api_send', { activity_id: activity.id });

  const now = deps.clock.now();
  const claim = (outcome: InboundOutcome) =>
    claimInboundMail(deps.db, { objectKey: key, outcome, activityId: activity.id, now });
  /** Runs `action` once per object: claimed first, given back if it fails so that a retry can do it. */
  const once = async (outcome: InboundOutcome, action: () => Promise<unknown>, extra: Record<string, unknown>): Promise<InboundResult> => {
    if (!(await claim(outcome))) return log('duplicate', { activity_id: activity.id });
    try {
      await action();
    } catch (error) {
      await releaseInboundMail(deps.db, key).catch((e) => logger.error('Could not release an inbound claim', { key, error: e }));
      throw error;
    }
    return log(outcome, { activity_id: activity.id, ...extra });
  };

  if (oversize) {
    const sender = readReply(mail).from?.address;
    if (!sender || isAutomatic(mail) || sesVerdict(mail, 'spam') === 'FAIL') return log('dropped_oversize', { activity_id: activity.id, size: raw.length });
    const bounce = await undeliverableMail({
      inboundDomain: deps.config.INBOUND_DOMAIN,
      serviceName: deps.config.SERVICE_NAME,
      to: sender,
      replyAddress: match.address,
      subject: mail.subject ?? '',
      messageId: mail.messageId ?? null,
      size: raw.length,
    });
    return once('bounced', () => deps.mailer.sendRaw(bounce), { size: raw.length });
  }

  const receivedAt = object.receivedAt ?? now.toISOString();
  const event = inboundEvent(activity, readReply(mail), receivedAt, now.toISOString());
  const project = await getProject(deps.db, activity.project_id);
  // Rule 4 is the fan-out's, applied here only to know whether anyone would receive the event.
  if (!project || webhookTargets(project, event).length === 0) return log('no_target', { activity_id: activity.id });
  return once('published', () => deps.events.publish(event), {});
}
