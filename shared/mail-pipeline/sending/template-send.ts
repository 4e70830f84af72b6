import { randomUUID } from 'node:crypto';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { notFound, unprocessable } from '../../platform/core/errors';
import { checkProjectCanSend, defaultSubject, isEmptyHtml, queueSend, type AcceptDeps } from '..';
import { findSuppressed } from '../suppression/suppression-repository';
import { ensureUnsubscribeFooter, recipientUnsubscribeLinks, withLinkVariables } from '../unsubscribe/unsubscribe-links';
import { renderTemplate, templateVariableNames } from '../templates/render';
import type { Template } from '../templates/template';
import { getTemplate, getTemplateByInternalId } from '../templates/template-repository';
import { TEMPLATE_SEND_MESSAGES, type TemplateSendInput } from './template-send-request';

/** The template of the project named by uuid or internal id (undefined when there is none). */
function findTemplateByRef(deps: Needs<'db'>, projectId: string, ref: { id?: string; internalId?: number }): Promise<Template | undefined> {
  return ref.id ? getTemplate(deps.db, projectId, ref.id) : getTemplateByInternalId(deps.db, projectId, ref.internalId as number);
}

/**
 * `POST /v1/send-template-email` (4.2). Suppression is checked before answering (`skipped`). The
 * template (or `html_body`) is rendered with the variables, plus `unsubscribe_url` and
 * `view_in_browser_url` when not supplied; the mail gets an unsubscribe footer if its HTML lacks
 * the URL, and the RFC 8058 headers. Replies go to the sender, not to a reply token.
 */
export async function sendTemplateEmail(
  deps: AcceptDeps,
  caller: ProjectCaller,
  input: TemplateSendInput,
  /** Where the API was reached; unsubscribe and view links point there. */
  requestBaseUrl?: string,
) {
  checkProjectCanSend(caller, input.environment);
  const projectId = caller.project.id;

  const suppressed = (await findSuppressed(deps.db, projectId, [input.recipient])).get(input.recipient);
  if (suppressed) {
    return { message: 'Recipient is suppressed; nothing was sent', skipped: true, suppression_reason: suppressed.reason, recipient: input.recipient };
  }

  let template: Template | undefined;
  if (input.templateId || input.templateInternalId !== undefined) {
    template = await findTemplateByRef(deps, projectId, { id: input.templateId, internalId: input.templateInternalId });
    if (!template) throw notFound(TEMPLATE_SEND_MESSAGES.notFound(input.templateId ?? String(input.templateInternalId)));
  }
  const source = template?.html ?? input.html ?? '';

  const activityId = randomUUID();
  const links = recipientUnsubscribeLinks({ activityId, projectId, email: input.recipient, secret: await deps.tokenSecret(), requestBaseUrl });
  const variables = withLinkVariables(input.variables, links);

  const rendered = renderTemplate(source, variables, { format: 'html', field: template ? 'html' : 'html_body', cacheKey: template ? `${template.id}:${template.version}` : undefined });
  if (isEmptyHtml(rendered.output)) {
    throw unprocessable(TEMPLATE_SEND_MESSAGES.empty, 'TEMPLATE_EMPTY');
  }
  const subjectSource = input.subject ?? template?.subject ?? defaultSubject(deps);
  const subject = renderTemplate(subjectSource, variables, { format: 'header', field: 'subject' }).output;
  const html = links ? ensureUnsubscribeFooter(rendered.output, String(variables.unsubscribe_url)) : rendered.output;

  await queueSend(deps, caller, {
    activityId,
    emailType: 'template',
    templateId: template?.id,
    environment: input.environment,
    recipientCount: 1,
    payload: {
      from_email: input.senderEmail,
      from_name: input.senderName,
      to: [input.recipient],
      cc: [],
      bcc: [],
      subject,
      html,
      attachments: [],
      headers: links?.headers,
      untracked_links: links ? [links.unsubscribeUrl, links.viewInBrowserUrl] : undefined,
      reply_to: input.senderEmail,
    },
  });

  const used = new Set([...templateVariableNames(source, template ? 'html' : 'html_body'), ...templateVariableNames(subjectSource, 'subject')]);
  if (links) used.add('unsubscribe_url').add('view_in_browser_url');
  return {
    message: 'Email queued for sending',
    email_id: activityId,
    project_id: projectId,
    template_id: template?.id ?? null,
    template_internal_id: input.templateInternalId !== undefined && template ? template.internal_id : null,
    variables_used: [...used].sort(),
    used_cached_html: rendered.usedCache,
  };
}
