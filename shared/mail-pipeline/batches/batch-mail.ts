import type { Needs } from '../../platform/core/dependencies';
import { composeMail, type ComposedMail } from '..';
import type { Template } from '../templates/template';
import type { BatchContent } from './batch';

/**
 * One recipient's mail of a batch: the shared content rendered with the request's `data`, the
 * recipient's `name` as `{{name}}`, and the recipient's own `data` over both. Marketing batches
 * (the default) get tracking, the RFC 8058 headers and the footer, as template sends do.
 */
export function composeBatchMail(
  deps: Needs<'config'>,
  input: {
    content: BatchContent;
    template?: Template;
    recipient: { email: string; name?: string; data?: Record<string, unknown> };
    activityId: string;
    projectId: string;
    secret: string;
    preview?: boolean;
  },
): ComposedMail {
  const { content, recipient } = input;
  const data = { ...content.data, ...(recipient.name ? { name: recipient.name } : {}), ...recipient.data };
  return composeMail(deps, {
    content: {
      recipient: recipient.email,
      sender: content.sender,
      senderName: content.senderName,
      subject: content.subject,
      html: content.html,
      text: content.text,
      data,
      emailType: content.emailType,
      cc: [],
      bcc: [],
      attachments: [],
      customHeaders: content.customHeaders,
      references: [],
    },
    template: input.template,
    activityId: input.activityId,
    projectId: input.projectId,
    secret: input.secret,
    requestBaseUrl: content.requestBaseUrl,
    preview: input.preview,
  });
}
