import { randomBytes } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import { escapeHtml } from '../../platform/mail/escape-html';
import type { Project } from '../../platform/projects/project';
import { buildMime } from '../../platform/mail/mime';
import type { SenderProfile } from './domain';

/** Path of a project's own sender-confirmation link (`/senders/confirm/<token>`). */
export const CONFIRM_PATH = '/senders/confirm';

/** Tokens of confirmation links: unguessable, URL-safe. */
export const CONFIRM_TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** A new confirmation link token. */
export function newConfirmationToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The confirmation link of a sender. */
export function confirmationLink(sender: Pick<SenderProfile, 'confirmation_base_url' | 'confirmation_token'>): string {
  return `${sender.confirmation_base_url ?? ''}${CONFIRM_PATH}/${sender.confirmation_token}`;
}

/**
 * Mails the mailbox this project's own confirmation link. SES's own verification mail proves the
 * mailbox to SES, for the whole account; this one names the project that asks, and only its link
 * makes the sender verified for that project. It goes from the address to itself, which SES allows
 * once the address is verified there, so no service-owned sender is needed.
 */
export async function sendSenderConfirmation(deps: Needs<'mailer' | 'config'>, sender: SenderProfile, project: Pick<Project, 'id' | 'name'>): Promise<void> {
  const service = deps.config.SERVICE_NAME;
  const link = confirmationLink(sender);
  const raw = await buildMime({
    from: { address: sender.from_email, name: service },
    to: [sender.from_email],
    cc: [],
    subject: `Confirm that "${project.name}" may send as ${sender.from_email}`,
    html:
      `<p>The project "${escapeHtml(project.name)}" on ${escapeHtml(service)} asks to send email as ${escapeHtml(sender.from_email)}.</p>` +
      `<p>If you expect this, confirm here: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      '<p>If you do not, ignore this message: nothing will be sent as you.</p>',
    attachments: [],
  });
  await deps.mailer.sendRaw({ raw, from: sender.from_email, recipients: [sender.from_email], tags: { purpose: 'sender_confirmation' } });
}
