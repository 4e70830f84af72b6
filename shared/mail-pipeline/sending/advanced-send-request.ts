import * as z from '../../platform/core/zod';
import { asAddressList, isEmail } from '../../platform/mail/addresses';
import type { AdvancedEmailType, AdvancedSendInput, SendSource } from '../mail/advanced-send-types';
import { isRefusedCustomHeader } from '../../platform/mail/header-policy';
import { parseRequest } from '../../platform/core/validate';
import { SEND_LIMITS } from '..';
import { dedupe, environmentSchema, isBlank, optionalText, present } from '..';
import { SEND_EMAIL_MESSAGES, attachmentsSchema, optionalAddresses, toAttachments } from './send-email-request';

/** Messages of `POST /send-email`; part 7 quotes only the scheduling one, the rest are ours. */
export const ADVANCED_SEND_MESSAGES = {
  missing: (fields: string[]) => `Missing required fields: ${fields.join(', ')}`,
  recipientShape: 'recipient must be a non-empty string or array of strings',
  tooMany: (n: number) => `Too many recipients in recipient (${n}). Maximum is 50. For larger sends use /v1/send-batch.`,
  pastSchedule: 'scheduled_at must be in the future',
  emailType: 'email_type must be transactional or marketing',
  source: 'x-source must be one of api, platform, test',
  reservedHeader: (name: string) => `custom_headers may not set ${name}`,
} as const;

/** RFC 5322 field names: printable ASCII without the colon. */
const HEADER_NAME = /^[!-9;-~]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SOURCES: readonly SendSource[] = ['api', 'platform', 'test'];
const MAX_CUSTOM_HEADERS = 20;
const MAX_HEADER_VALUE = 998;
const TEMPLATE_ID_MESSAGE = 'templateId must be a template uuid or internal id';

type Ctx = z.core.$RefinementCtx<unknown>;
const fail = (ctx: Ctx, value: unknown, message: string) => void ctx.issues.push({ code: 'custom', message, input: value });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Null, undefined and '' read as absent. */
const isAbsent = (value: unknown): boolean => value == null || value === '';

/** A template by uuid, or by its numeric internal id (as GET /v1/templates/:id accepts). */
const isTemplateId = (value: string | number): boolean =>
  typeof value === 'number'
    ? Number.isInteger(value) && value > 0
    : UUID.test(value.trim()) || /^[1-9]\d{0,15}$/.test(value.trim());
const templateIdSchema = z.nullish(
  z.union([z.string(), z.number()], { error: TEMPLATE_ID_MESSAGE }).check(z.refine((v) => v === '' || isTemplateId(v), TEMPLATE_ID_MESSAGE)),
);

/** A Message-ID with or without its angle brackets: the text to write, or undefined when blank. */
function messageId(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  return text.startsWith('<') ? text : `<${text}>`;
}
const isMessageId = (value: string): boolean => {
  const id = messageId(value);
  return id === undefined || /^<[^<>\s]+>$/.test(id);
};
const messageIdMessage = (field: string) => `${field} must be a Message-ID such as <id@example.com>`;
const messageIdTooLong = (field: string) => `${field} must be at most 998 characters`;

/** `references`: one id, several separated by spaces, or an array of ids. */
const referenceList = (value: string | string[]): string[] => (typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value);

/** Extra headers, refused when they would override what the service writes or break the header block. */
const customHeadersSchema = z
  .record(z.string(), z.unknown(), { error: 'custom_headers must be an object of header names to string values' })
  .check(
    z.superRefine((headers, ctx) => {
      const entries = Object.entries(headers);
      if (entries.length > MAX_CUSTOM_HEADERS) return fail(ctx, headers, `custom_headers accepts at most ${MAX_CUSTOM_HEADERS} headers`);
      for (const [name, raw] of entries) {
        if (!HEADER_NAME.test(name)) return fail(ctx, headers, `custom_headers has an invalid header name: ${name}`);
        if (isRefusedCustomHeader(name)) return fail(ctx, headers, ADVANCED_SEND_MESSAGES.reservedHeader(name));
        if (typeof raw !== 'string' && typeof raw !== 'number') return fail(ctx, headers, `custom_headers.${name} must be a string`);
        const text = String(raw);
        // A line break would let a value start a header of its own.
        if (/[\r\n]/.test(text) || text.length > MAX_HEADER_VALUE) return fail(ctx, headers, `custom_headers.${name} must be one line of at most ${MAX_HEADER_VALUE} characters`);
      }
    }),
  );
z.globalRegistry.add(customHeadersSchema, { additionalProperties: { type: ['string', 'number'] }, maxProperties: MAX_CUSTOM_HEADERS });

const uuidField = (field: string) =>
  z.nullish(z.string({ error: `${field} must be a uuid` }).check(z.refine((v) => v === '' || UUID.test(v), `${field} must be a uuid`)));

/**
 * The body of `POST /send-email`. Keys are in the order the checks run: the templateId first (it
 * decides which fields are required), then the missing-fields check of the whole body, then the
 * fields.
 */
export const advancedSendBodySchema = z
  .object(
    {
      templateId: templateIdSchema,
      recipient: z.union([z.string(), z.array(z.string())], { error: ADVANCED_SEND_MESSAGES.recipientShape }).check(
        z.superRefine((value, ctx) => {
          const to = asAddressList(value)!;
          if (to.length === 0 || to.some((a) => a.trim() === '')) return fail(ctx, value, ADVANCED_SEND_MESSAGES.recipientShape);
          if (to.length > SEND_LIMITS.recipientsPerSingleSend) return fail(ctx, value, ADVANCED_SEND_MESSAGES.tooMany(to.length));
          const bad = to.find((a) => !isEmail(a.trim()));
          if (bad !== undefined) fail(ctx, value, `Invalid email address in recipient: ${bad}`);
        }),
      ),
      sender: z
        .string({ error: (issue) => `Invalid sender: ${String(issue.input)}` })
        .check(z.superRefine((value, ctx) => void (isEmail(value.trim()) || fail(ctx, value, `Invalid sender: ${value}`)))),
      email_type: z.nullish(z.enum(['transactional', 'marketing', ''], { error: ADVANCED_SEND_MESSAGES.emailType })),
      senderName: optionalText('senderName'),
      subject: optionalText('subject'),
      html: optionalText('html'),
      data: z.nullish(z.record(z.string(), z.unknown(), { error: 'data must be an object' })),
      campaign_id: uuidField('campaign_id'),
      automation_run_id: uuidField('automation_run_id'),
      scheduled_at: optionalText('scheduled_at'),
      timezone: optionalText('timezone'),
      cc: optionalAddresses('cc', SEND_LIMITS.ccPerSend, SEND_EMAIL_MESSAGES.ccTooMany),
      bcc: optionalAddresses('bcc', SEND_LIMITS.bccPerSend, SEND_EMAIL_MESSAGES.bccTooMany),
      attachments: attachmentsSchema,
      text: optionalText('text'),
      custom_headers: z.nullish(customHeadersSchema),
      in_reply_to: z.nullish(
        z
          .string({ error: 'in_reply_to must be a string' })
          .check(z.refine((v) => v.length <= 998, messageIdTooLong('in_reply_to')), z.refine(isMessageId, messageIdMessage('in_reply_to'))),
      ),
      references: z.nullish(
        z.union([z.string(), z.array(z.string())], { error: 'references must be a string or array of strings' }).check(
          z.superRefine((value, ctx) => {
            for (const id of referenceList(value)) {
              if (id.length > 998) return fail(ctx, value, messageIdTooLong('references'));
              if (!isMessageId(id)) return fail(ctx, value, messageIdMessage('references'));
            }
          }),
        ),
      ),
      thread_id: optionalText('thread_id', 256),
      dry_run: z.nullish(z.boolean({ error: 'dry_run must be a boolean' })),
      environment: environmentSchema,
    },
    { error: 'Request body must be a JSON object' },
  )
  .check(
    z.refine(
      (b: Record<string, unknown>) => missingFields(b).length === 0,
      {
        error: (issue) => ADVANCED_SEND_MESSAGES.missing(missingFields(issue.input as Record<string, unknown>)),
        // Only with a usable templateId: a bad one is the first problem, as it decides what is required.
        when: ({ value }) => isRecord(value) && (isAbsent(value.templateId) || ((typeof value.templateId === 'string' || typeof value.templateId === 'number') && isTemplateId(value.templateId))),
      },
    ),
  );

/** The required fields `body` lacks, in part 7's order; subject and html are not needed with a template. */
function missingFields(b: Record<string, unknown>): string[] {
  const template = !isAbsent(b.templateId);
  const missing: string[] = [];
  if (isAbsent(b.recipient)) missing.push('recipient');
  if (isBlank(b.sender)) missing.push('sender');
  if (isBlank(b.subject) && !template) missing.push('subject');
  if (isBlank(b.html) && !template) missing.push('html (or templateId)');
  return missing;
}

/** The `x-source` header: who sent the mail, for the activity view. */
const sourceSchema = z.optional(
  z.string().check(z.refine((v) => v.trim() === '' || SOURCES.includes(v.trim().toLowerCase() as SendSource), ADVANCED_SEND_MESSAGES.source)),
);

/** Validates a `POST /send-email` body and its `x-source` header; throws a 400 with the first problem. */
export function parseAdvancedSendRequest(body: unknown, headers: Readonly<Record<string, string | undefined>> = {}): AdvancedSendInput {
  return toAdvancedSend(parseRequest(advancedSendBodySchema, body), headers);
}

/** An advanced send body its schema accepted, and its `x-source` header (checked here), as the send takes them. */
export function toAdvancedSend(b: z.output<typeof advancedSendBodySchema>, headers: Readonly<Record<string, string | undefined>>): AdvancedSendInput {
  const source = parseRequest(sourceSchema, headers['x-source'])?.trim().toLowerCase();
  const templateId = present(b.templateId);
  return {
    recipients: dedupe(asAddressList(b.recipient)!),
    sender: b.sender.trim(),
    senderName: present(b.senderName),
    subject: present(b.subject),
    html: present(b.html),
    templateId: typeof templateId === 'number' ? String(templateId) : templateId?.trim().toLowerCase(),
    data: b.data ?? undefined,
    emailType: (present(b.email_type) ?? 'transactional') as AdvancedEmailType,
    campaignId: present(b.campaign_id)?.toLowerCase(),
    automationRunId: present(b.automation_run_id)?.toLowerCase(),
    scheduledAt: present(b.scheduled_at),
    timezone: present(b.timezone),
    cc: dedupe(b.cc == null ? [] : asAddressList(b.cc)!),
    bcc: dedupe(b.bcc == null ? [] : asAddressList(b.bcc)!),
    attachments: toAttachments(b.attachments),
    text: present(b.text),
    customHeaders: Object.fromEntries(Object.entries(b.custom_headers ?? {}).map(([name, value]) => [name, String(value)])),
    inReplyTo: b.in_reply_to == null ? undefined : messageId(b.in_reply_to),
    references: present(b.references) === undefined ? [] : referenceList(b.references!).map((id) => messageId(id) as string),
    threadId: present(b.thread_id),
    dryRun: b.dry_run ?? false,
    environment: present(b.environment),
    source: source ? (source as SendSource) : undefined,
  };
}
