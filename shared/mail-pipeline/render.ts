import type { Needs } from '../platform/core/dependencies';
import { AppError, unprocessable } from '../platform/core/errors';
import { renderTemplate, templateVariableNames } from './templates/render';
import type { RenderFormat, Template } from './templates/template';
import { ensureUnsubscribeFooter, recipientUnsubscribeLinks, withLinkVariables } from './unsubscribe/unsubscribe-links';
import { defaultSubject, POLICY_MESSAGES } from './policies';
import type { AdvancedEmailType } from './mail/advanced-send-types';
import type { SendPayload } from './job';
import type { AttachmentInput } from './mail/advanced-send-types';

/** One mail of an advanced send: the request's content for one recipient. */
export interface MailContent {
  recipient: string;
  sender: string;
  senderName?: string;
  subject?: string;
  html?: string;
  text?: string;
  data?: Record<string, unknown>;
  emailType: AdvancedEmailType;
  cc: string[];
  bcc: string[];
  attachments: AttachmentInput[];
  customHeaders: Record<string, string>;
  inReplyTo?: string;
  references: string[];
}

/** The mail as it will be queued, and what a dry run reports about it. */
export interface ComposedMail {
  payload: SendPayload;
  variablesUsed: string[];
  sampleCartItemsInjected: boolean;
}

/** Placeholder cart lines a dry run shows when the template loops over `cart_items` and no data gave any. */
export const SAMPLE_CART_ITEMS = [
  { name: 'Sample product', quantity: 1, price: 29.99, image_url: 'https://placehold.co/96x96', url: 'https://example.com/product' },
  { name: 'Another sample product', quantity: 2, price: 9.5, image_url: 'https://placehold.co/96x96', url: 'https://example.com/product-2' },
];

/**
 * Builds one mail of `POST /send-email` (part 4.5). Handlebars renders the template, or the `html`
 * when `data` is given or the mail is marketing (which offers `unsubscribe_url` and
 * `view_in_browser_url`); a transactional `html` without `data` is sent as written, so literal
 * braces survive. Marketing mail also gets the RFC 8058 headers and an unsubscribe footer when its
 * HTML lacks the link. `in_reply_to` and `references` become the threading headers.
 */
export function composeMail(
  deps: Needs<'config'>,
  input: {
    content: MailContent;
    template?: Template;
    activityId: string;
    projectId: string;
    secret: string;
    /** Where the API was reached, for unsubscribe links when no public URL is configured. */
    requestBaseUrl?: string;
    /** Dry run: variables without a value stay `{{name}}`, and sample cart items fill an empty cart. */
    preview?: boolean;
  },
): ComposedMail {
  const { content, template } = input;
  const marketing = content.emailType === 'marketing';
  const links = marketing
    ? recipientUnsubscribeLinks({ activityId: input.activityId, projectId: input.projectId, email: content.recipient, secret: input.secret, requestBaseUrl: input.requestBaseUrl })
    : undefined;

  const htmlSource = template?.html ?? content.html ?? '';
  const subjectSource = content.subject ?? template?.subject ?? defaultSubject(deps);
  const variables = withLinkVariables(content.data, links);
  const renders = template !== undefined || content.data !== undefined || marketing;
  // Content sent as written may hold braces that are not Handlebars: its names are only a report.
  const names = (source: string, field: string) => (renders ? templateVariableNames(source, field) : namesIfParsable(source, field));
  const used = new Set([...names(htmlSource, 'html'), ...names(subjectSource, 'subject')]);
  let sampleCartItemsInjected = false;
  if (input.preview && used.has('cart_items') && variables.cart_items === undefined) {
    variables.cart_items = SAMPLE_CART_ITEMS;
    sampleCartItemsInjected = true;
  }

  // Only the HTML escapes variables: the Subject and the text part show them as given.
  const render = (source: string, field: string, format: RenderFormat, cacheKey?: string) => renderTemplate(source, variables, { format, preview: input.preview, cacheKey, field }).output;
  let html = renders ? render(htmlSource, 'html', 'html', template && !input.preview ? `${template.id}:${template.version}` : undefined) : htmlSource;
  if (renders && isEmptyHtml(html)) throw unprocessable(POLICY_MESSAGES.templateEmpty, 'TEMPLATE_EMPTY');
  if (links) html = ensureUnsubscribeFooter(html, String(variables.unsubscribe_url));
  const subject = renders ? render(subjectSource, 'subject', 'header') : subjectSource;
  const text = content.text !== undefined && renders ? render(content.text, 'text', 'text') : content.text;

  const headers: Record<string, string> = { ...content.customHeaders, ...threadingHeaders(content.inReplyTo, content.references), ...links?.headers };
  if (links) used.add('unsubscribe_url').add('view_in_browser_url');

  return {
    payload: {
      from_email: content.sender,
      from_name: content.senderName,
      to: [content.recipient],
      cc: content.cc,
      bcc: content.bcc,
      subject,
      html,
      text,
      attachments: content.attachments,
      headers: Object.keys(headers).length > 0 ? headers : undefined,
      untracked_links: links ? [links.unsubscribeUrl, links.viewInBrowserUrl] : undefined,
    },
    variablesUsed: [...used].sort(),
    sampleCartItemsInjected,
  };
}

/** The variable names of content that is not rendered, or none when it is not a template at all. */
function namesIfParsable(source: string, field: string): string[] {
  try {
    return templateVariableNames(source, field);
  } catch (error) {
    if (error instanceof AppError) return [];
    throw error;
  }
}

/** True when rendered HTML shows nothing: no text and no image (part 7 `TEMPLATE_EMPTY`). */
export function isEmptyHtml(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').trim() === '' && !/<img\b/i.test(html);
}

/**
 * `In-Reply-To` and `References` (RFC 5322 3.6.4): the references as given, ending with the
 * message replied to when it is not among them already.
 */
export function threadingHeaders(inReplyTo: string | undefined, references: string[]): Record<string, string> {
  const chain = [...references];
  if (inReplyTo && !chain.includes(inReplyTo)) chain.push(inReplyTo);
  const headers: Record<string, string> = {};
  if (inReplyTo) headers['In-Reply-To'] = inReplyTo;
  if (chain.length > 0) headers.References = chain.join(' ');
  return headers;
}
