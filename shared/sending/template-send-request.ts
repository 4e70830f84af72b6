import { badRequest } from '../errors';
import { isEmail, normalizeEmail } from '../mail/addresses';
import { parseEnvironment } from './send-email-request';

/** Messages of part 7 for `/v1/send-template-email`, to the letter. */
export const TEMPLATE_SEND_MESSAGES = {
  nothingToSend: 'Missing required fields: template_id/template_internal_id, OR recipient_email + sender_email + html_body',
  missingAddresses: 'Missing required fields: recipient_email, sender_email',
  internalIdContext: 'template_internal_id requires valid project context',
  notFound: (id: string | number) => `Template not found with ID ${id}`,
  empty: 'TEMPLATE_EMPTY',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A validated `POST /v1/send-template-email`. */
export interface TemplateSendInput {
  templateId?: string;
  templateInternalId?: number;
  html?: string;
  recipient: string;
  senderEmail: string;
  senderName?: string;
  subject?: string;
  variables: Record<string, unknown>;
  environment?: string;
}

/** Validates a template send in part 7's order. */
export function parseTemplateSendRequest(body: unknown): TemplateSendInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const has = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!has(b.template_id) && !has(b.template_internal_id) && !has(b.html_body)) throw badRequest(TEMPLATE_SEND_MESSAGES.nothingToSend);
  if (!has(b.recipient_email) || !has(b.sender_email)) throw badRequest(TEMPLATE_SEND_MESSAGES.missingAddresses);

  const input: TemplateSendInput = { recipient: '', senderEmail: '', variables: {} };
  if (has(b.template_id)) {
    if (typeof b.template_id !== 'string' || !UUID.test(b.template_id)) throw badRequest('template_id must be a uuid');
    input.templateId = b.template_id.toLowerCase();
  } else if (has(b.template_internal_id)) {
    // A short per-project number means nothing without the project; one that is not a whole
    // number cannot name a template of any project.
    const n = Number(b.template_internal_id);
    if (!Number.isInteger(n) || n < 1) throw badRequest(TEMPLATE_SEND_MESSAGES.internalIdContext);
    input.templateInternalId = n;
  } else {
    if (typeof b.html_body !== 'string') throw badRequest('html_body must be a string');
    input.html = b.html_body;
  }
  if (typeof b.recipient_email !== 'string' || !isEmail(b.recipient_email.trim())) throw badRequest(`Invalid email address in recipient_email: ${String(b.recipient_email)}`);
  input.recipient = normalizeEmail(b.recipient_email);
  if (typeof b.sender_email !== 'string' || !isEmail(b.sender_email.trim())) throw badRequest(`Invalid sender_email: ${String(b.sender_email)}`);
  input.senderEmail = b.sender_email.trim();
  if (b.sender_name != null) {
    if (typeof b.sender_name !== 'string') throw badRequest('sender_name must be a string');
    input.senderName = b.sender_name || undefined;
  }
  if (b.subject != null) {
    if (typeof b.subject !== 'string') throw badRequest('subject must be a string');
    input.subject = b.subject || undefined;
  }
  if (b.variables != null) {
    if (typeof b.variables !== 'object' || Array.isArray(b.variables)) throw badRequest('variables must be an object');
    input.variables = b.variables as Record<string, unknown>;
  }
  input.environment = parseEnvironment(b.environment);
  return input;
}
