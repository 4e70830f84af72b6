import { encodeBody } from './activity/activity-body';
import type { Needs } from '../platform/core/dependencies';
import { mailReplyTo } from './reply-token';
import type { SendPayload } from './job';

/**
 * The stored body of a mail (gzipped): the HTML as the worker sends it before tracking rewrites
 * its links, the text, the recipients, the Reply-To and the attachments' names. The API stores it
 * at accept and a batch mail's claim at send, from the same payload, so both store the same bytes.
 */
export function encodeMailBody(deps: Needs<'config'>, activityId: string, payload: SendPayload, secret: string): Uint8Array {
  return encodeBody({
    html: payload.html,
    text: payload.text,
    to: payload.to,
    cc: payload.cc,
    bcc: payload.bcc,
    reply_to: mailReplyTo(deps.config, activityId, payload.reply_to, secret),
    attachments: payload.attachments.map((a) => ({ filename: a.filename, content_type: a.contentType, source: a.url ? 'url' : 'content' })),
  });
}
