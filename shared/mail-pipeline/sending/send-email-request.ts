import * as z from '../../platform/core/zod';
import { asAddressList, isEmail } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';
import { dedupe, environmentSchema, POLICY_MESSAGES, SEND_LIMITS } from '..';
import type { AttachmentInput } from '../mail/advanced-send-types';

/** A validated `POST /v1/send-email` request. */
export interface SingleSendInput {
  to: string[];
  cc: string[];
  bcc: string[];
  senderEmail: string;
  senderName?: string;
  subject?: string;
  html: string;
  text?: string;
  attachments: AttachmentInput[];
  environment?: string;
}

/** Messages of part 7 for `/v1/send-email`, to the letter (the others are ours). */
export const SEND_EMAIL_MESSAGES = {
  missing: 'Missing required fields: recipient_email, sender_email, html_body',
  recipientShape: 'recipient_email must be a non-empty string or array of strings',
  tooMany: (n: number) => `Too many recipients in recipient_email (${n}). Maximum is 50. For larger sends use /v1/send-batch.`,
  ccTooMany: 'cc accepts at most 10 addresses',
  bccTooMany: 'bcc accepts at most 10 addresses',
  attachmentsShape: 'attachments must be an array',
  attachmentsTooMany: 'attachments accepts at most 10 items',
  environmentNotConfigured: POLICY_MESSAGES.environmentNotConfigured,
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/** True for base64 that decodes to at least one byte (padding optional, line breaks allowed). */
function isBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return compact.length > 0 && BASE64.test(compact) && compact.replace(/=+$/, '').length % 4 !== 1;
}

/** Absent, or a string of nothing but white space. */
const isBlank = (value: unknown): boolean => value == null || (typeof value === 'string' && value.trim() === '');
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Absent for the parsers: null, undefined or ''. */
const isAbsent = (value: unknown): boolean => value == null || value === '';

type Ctx = z.core.$RefinementCtx<unknown>;
const fail = (ctx: Ctx, value: unknown, message: string) => ctx.issues.push({ code: 'custom', message, input: value });

/** One address or a list of them; `shape` is the message for anything else. */
const addresses = (shape: string) => z.union([z.string(), z.array(z.string())], { error: shape });

/** Throws on the first address of `list` that is not a valid email address. */
function checkAddresses(ctx: Ctx, field: string, list: string[]): void {
  const bad = list.find((a) => !isEmail(a.trim()));
  if (bad !== undefined) fail(ctx, list, `Invalid email address in ${field}: ${bad}`);
}

/** An optional address list (string or array) of at most `max` valid addresses. */
export const optionalAddresses = (field: string, max: number, tooMany: string) =>
  z.nullish(
    addresses(`${field} must be a string or array of strings`).check(
      z.superRefine((value, ctx) => {
        const list = asAddressList(value)!;
        if (list.length > max) return void fail(ctx, value, tooMany);
        checkAddresses(ctx, field, list);
      }),
    ),
  );

/** An optional string field; null and '' read as absent. */
const optionalText = (field: string) => z.nullish(z.string({ error: `${field} must be a string` }));

/**
 * One attachment: a filename and exactly one of url or content. Messages name the item by its
 * place (`{path}` becomes `attachments[2]`), as the hand-written parser did.
 */
export const attachmentSchema = z
  .object(
    {
      filename: z.string({ error: '{path} is required' }).check(z.refine((v) => v.trim() !== '', '{path} is required')),
      url: z.nullish(z.string({ error: '{path} must be an http or https URL' }).check(z.refine((v) => v === '' || HTTP_URL.test(v), '{path} must be an http or https URL'))),
      content: z.nullish(z.string({ error: '{path} must be base64' }).check(z.refine((v) => v === '' || isBase64(v), '{path} must be base64'))),
      contentType: z.nullish(z.string({ error: '{path} must be a string' })),
    },
    { error: '{path} must be an object' },
  )
  .check(
    z.refine((a: Record<string, unknown>) => isAbsent(a.url) !== isAbsent(a.content), {
      message: '{path} needs exactly one of url or content',
      // Only once the filename is good: the filename is checked first.
      when: ({ value }) => isRecord(value) && typeof value.filename === 'string' && value.filename.trim() !== '',
    }),
  );

/**
 * The attachments array: at most 10 items, each an attachment. The count is a refinement, not
 * `z.maxLength`: zod fails an oversized array before its items and marks that as an abort, which
 * would also stop the body's missing-fields check, which part 7 puts first. The document still
 * shows the limit (`maxItems`, registered as metadata).
 */
const attachmentList = z
  .array(attachmentSchema, { error: SEND_EMAIL_MESSAGES.attachmentsShape })
  .check(z.refine((list) => list.length <= SEND_LIMITS.attachmentsPerEmail, { message: SEND_EMAIL_MESSAGES.attachmentsTooMany, when: ({ value }) => Array.isArray(value) }));
z.globalRegistry.add(attachmentList, { maxItems: SEND_LIMITS.attachmentsPerEmail });
export const attachmentsSchema = z.nullish(attachmentList);

/**
 * The body of `POST /v1/send-email`. Keys are in the order part 7 checks them; the missing-fields
 * check is about the whole body, so it comes first.
 */
export const sendEmailBodySchema = z
  .object(
    {
      recipient_email: addresses(SEND_EMAIL_MESSAGES.recipientShape).check(
        z.superRefine((value, ctx) => {
          const to = asAddressList(value)!;
          if (to.length === 0 || to.some((a) => a.trim() === '')) return void fail(ctx, value, SEND_EMAIL_MESSAGES.recipientShape);
          if (to.length > SEND_LIMITS.recipientsPerSingleSend) return void fail(ctx, value, SEND_EMAIL_MESSAGES.tooMany(to.length));
          checkAddresses(ctx, 'recipient_email', to);
        }),
      ),
      sender_email: z
        .string({ error: 'sender_email must be a string' })
        .check(z.superRefine((value, ctx) => void (isEmail(value.trim()) || fail(ctx, value, `Invalid sender_email: ${value.trim()}`)))),
      html_body: z.string({ error: 'html_body must be a string' }),
      cc: optionalAddresses('cc', SEND_LIMITS.ccPerSend, SEND_EMAIL_MESSAGES.ccTooMany),
      bcc: optionalAddresses('bcc', SEND_LIMITS.bccPerSend, SEND_EMAIL_MESSAGES.bccTooMany),
      attachments: attachmentsSchema,
      sender_name: optionalText('sender_name'),
      subject: optionalText('subject'),
      text_body: optionalText('text_body'),
      environment: environmentSchema,
    },
    { error: 'Request body must be a JSON object' },
  )
  .check(
    z.refine((b: Record<string, unknown>) => !(b.recipient_email == null || isBlank(b.sender_email) || isBlank(b.html_body)), {
      message: SEND_EMAIL_MESSAGES.missing,
      when: ({ value }) => isRecord(value),
    }),
  );

/** A `/v1/send-email` body its schema accepted. */
export type SendEmailBody = z.output<typeof sendEmailBodySchema>;

/** Null and '' read as absent. */
const present = (value: string | null | undefined): string | undefined => (value == null || value === '' ? undefined : value);

/** The attachments as the pipeline takes them. */
export function toAttachments(list: z.output<typeof attachmentsSchema>): AttachmentInput[] {
  return (list ?? []).map((a) => ({
    filename: a.filename.trim(),
    url: present(a.url),
    content: present(a.content),
    contentType: present(a.contentType),
  }));
}

/** The validated body as the send pipeline takes it: addresses normalised and deduplicated. */
export function toSingleSend(b: SendEmailBody): SingleSendInput {
  return {
    to: dedupe(asAddressList(b.recipient_email)!),
    cc: dedupe(b.cc == null ? [] : asAddressList(b.cc)!),
    bcc: dedupe(b.bcc == null ? [] : asAddressList(b.bcc)!),
    senderEmail: b.sender_email.trim(),
    senderName: present(b.sender_name),
    subject: present(b.subject),
    html: b.html_body,
    text: present(b.text_body),
    attachments: toAttachments(b.attachments),
    environment: present(b.environment),
  };
}

/** Validates a `/v1/send-email` body in the order of part 7; throws a 400 with the first problem. */
export function parseSendEmailRequest(body: unknown): SingleSendInput {
  return toSingleSend(parseRequest(sendEmailBodySchema, body));
}

/** Validates the optional `environment` name (pattern and length of part 8). */
export function parseEnvironment(value: unknown): string | undefined {
  return present(parseRequest(environmentSchema, value));
}

/** Validates an attachments array: count, and per item a filename and exactly one of url or content. */
export function parseAttachments(value: unknown): AttachmentInput[] {
  return toAttachments(parseRequest(z.object({ attachments: attachmentsSchema }), { attachments: value }).attachments);
}
