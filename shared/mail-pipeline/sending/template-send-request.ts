import * as z from '../../platform/core/zod';
import { isEmail, normalizeEmail } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';
import { environmentSchema, POLICY_MESSAGES } from '..';

/** Messages of part 7 for `/v1/send-template-email`, to the letter. */
export const TEMPLATE_SEND_MESSAGES = {
  nothingToSend: 'Missing required fields: template_id/template_internal_id, OR recipient_email + sender_email + html_body',
  missingAddresses: 'Missing required fields: recipient_email, sender_email',
  internalIdContext: 'template_internal_id requires valid project context',
  notFound: POLICY_MESSAGES.templateNotFound,
  empty: POLICY_MESSAGES.templateEmpty,
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

const has = (v: unknown) => v !== undefined && v !== null && v !== '';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const bodyChecks = { when: ({ value }: { value: unknown }) => isRecord(value) };

/**
 * Read only when no template_id is given (then checked by the body's own check below): any value
 * passes here, so that an unused one refuses nothing, as before. The document shows the type.
 */
const templateInternalId = z.unknown();
z.globalRegistry.add(templateInternalId, { type: ['integer', 'string'], description: 'Per-project short id; read only without template_id' });
/** Read only when no template is named (checked by the body's own check below). */
const inlineHtml = z.unknown();
z.globalRegistry.add(inlineHtml, { type: 'string', description: 'Inline HTML; read only when no template is named' });

/**
 * The body of `POST /v1/send-template-email`: a stored template (`template_id` or
 * `template_internal_id`) or inline `html_body`, to one recipient. The checks that depend on
 * which of the three is given are the body's own, in part 7's order: they come before any
 * field's problem.
 */
export const templateSendBodySchema = z
  .object(
    {
      template_id: z.nullish(z.string({ error: 'template_id must be a uuid' }).check(z.refine((v) => v === '' || UUID.test(v), 'template_id must be a uuid'))),
      template_internal_id: z.optional(templateInternalId),
      html_body: z.optional(inlineHtml),
      recipient_email: z
        .string({ error: (issue) => `Invalid email address in recipient_email: ${String(issue.input)}` })
        .check(z.superRefine((v, ctx) => void (isEmail(v.trim()) || ctx.issues.push({ code: 'custom', input: v, message: `Invalid email address in recipient_email: ${v}` })))),
      sender_email: z
        .string({ error: (issue) => `Invalid sender_email: ${String(issue.input)}` })
        .check(z.superRefine((v, ctx) => void (isEmail(v.trim()) || ctx.issues.push({ code: 'custom', input: v, message: `Invalid sender_email: ${v}` })))),
      sender_name: z.nullish(z.string({ error: 'sender_name must be a string' })),
      subject: z.nullish(z.string({ error: 'subject must be a string' })),
      variables: z.nullish(z.record(z.string(), z.unknown(), { error: 'variables must be an object' })),
      environment: environmentSchema,
    },
    { error: 'Request body must be a JSON object' },
  )
  .check(
    z.refine((b: Record<string, unknown>) => has(b.template_id) || has(b.template_internal_id) || has(b.html_body), { message: TEMPLATE_SEND_MESSAGES.nothingToSend, ...bodyChecks }),
    z.refine((b: Record<string, unknown>) => has(b.recipient_email) && has(b.sender_email), { message: TEMPLATE_SEND_MESSAGES.missingAddresses, ...bodyChecks }),
    // A short per-project number means nothing without the project; one that is not a whole
    // number cannot name a template of any project. Read only when no template_id is given.
    z.refine((b: Record<string, unknown>) => has(b.template_id) || !has(b.template_internal_id) || isInternalId(b.template_internal_id), {
      message: TEMPLATE_SEND_MESSAGES.internalIdContext,
      ...bodyChecks,
    }),
    // Inline HTML is read only when no template is named.
    z.refine((b: Record<string, unknown>) => has(b.template_id) || has(b.template_internal_id) || typeof b.html_body === 'string', {
      message: 'html_body must be a string',
      ...bodyChecks,
    }),
  );

/** A whole number from 1 (a number or its digits). */
function isInternalId(value: unknown): boolean {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1;
}

/** Validates a template send in part 7's order. */
export function parseTemplateSendRequest(body: unknown): TemplateSendInput {
  return toTemplateSend(parseRequest(templateSendBodySchema, body));
}

/** A template send body its schema accepted, as the send takes it. */
export function toTemplateSend(b: z.output<typeof templateSendBodySchema>): TemplateSendInput {
  const input: TemplateSendInput = { recipient: normalizeEmail(b.recipient_email), senderEmail: b.sender_email.trim(), variables: b.variables ?? {} };
  if (has(b.template_id)) input.templateId = b.template_id!.toLowerCase();
  else if (has(b.template_internal_id)) input.templateInternalId = Number(b.template_internal_id);
  else input.html = b.html_body as string;
  if (b.sender_name != null) input.senderName = b.sender_name || undefined;
  if (b.subject != null) input.subject = b.subject || undefined;
  input.environment = b.environment || undefined;
  return input;
}
