import * as z from '../../platform/core/zod';
import { storedValueProblem } from '../../platform/store/storable-value';
import { SEND_LIMITS } from '..';
import { isEmail, normalizeEmail } from '../../platform/mail/addresses';
import { environmentSchema, isBlank, optionalText, present } from '..';
import { parseRequest } from '../../platform/core/validate';
import type { BatchContent, BatchRecipient } from './batch';
import { MAX_BATCH_RECIPIENTS } from './batch-ids';

/** A validated `POST /v1/send-batch` request (part 4.3). */
export interface BatchInput {
  content: BatchContent;
  /** Valid, lowercased, each address once, in the request's order. */
  recipients: BatchRecipient[];
  duplicatesRemoved: number;
  /** Raw `scheduled_at` (ISO 8601 or English); resolved by shared/mail-pipeline/scheduling. */
  scheduledAt?: string;
  timezone?: string;
  dryRun: boolean;
  /** Custom headers given but not applied (part 4.3 applies only the unsubscribe pair); echoed in the answer. */
  ignoredHeaders: string[];
}

/** Messages of `POST /v1/send-batch`; part 7 quotes none, so these are ours (docs/batches.md). */
export const BATCH_MESSAGES = {
  missing: (fields: string[]) => `Missing required fields: ${fields.join(', ')}`,
  recipientsShape: 'recipients must be a non-empty array of email addresses or {email, name, data, metadata} objects',
  tooMany: (n: number) => `Too many recipients (${n}). Maximum is ${MAX_BATCH_RECIPIENTS.toLocaleString('en-US')} per call.`,
  invalidEmail: (i: number) => `recipients[${i}].email is invalid`,
  recipientShape: (i: number) => `recipients[${i}] must be an email address or an object with an email`,
  objectField: (i: number, field: string) => `recipients[${i}].${field} must be an object`,
  nameField: (i: number) => `recipients[${i}].name must be a string of at most 256 characters`,
  /** `problem` as storedValueProblem words it. */
  storedField: (i: number, field: string, problem: string) => `recipients[${i}].${field} ${problem}`,
  emailType: 'email_type must be transactional or marketing',
} as const;

/** The only custom headers a batch applies (part 4.3), by lowercased name. */
const APPLIED_HEADERS = new Map([
  ['list-unsubscribe', 'List-Unsubscribe'],
  ['list-unsubscribe-post', 'List-Unsubscribe-Post'],
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_HEADER_VALUE = 998;
const MAX_NAME = 256;
const TEMPLATE_ID_MESSAGE = 'templateId must be a template uuid';

type Ctx = z.core.$RefinementCtx<unknown>;
const fail = (ctx: Ctx, value: unknown, message: string) => void ctx.issues.push({ code: 'custom', message, input: value });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** An absent or object-valued field (`data`, `metadata`). */
const isObjectOrAbsent = (value: unknown): boolean => value == null || (typeof value === 'object' && !Array.isArray(value));
const isTemplateIdOrAbsent = (value: unknown): boolean => value == null || value === '' || (typeof value === 'string' && UUID.test(value.trim()));

/** The problem of recipient `i`, if any, in the order the fields are read. */
function recipientProblem(entry: unknown, i: number): string | undefined {
  if (typeof entry === 'string') return isEmail(normalizeEmail(entry)) ? undefined : BATCH_MESSAGES.invalidEmail(i);
  if (!isRecord(entry)) return BATCH_MESSAGES.recipientShape(i);
  if (typeof entry.email !== 'string') return BATCH_MESSAGES.invalidEmail(i);
  const { name } = entry;
  if (name != null && (typeof name !== 'string' || name.length > MAX_NAME || /[\r\n]/.test(name))) return BATCH_MESSAGES.nameField(i);
  if (!isEmail(normalizeEmail(entry.email))) return BATCH_MESSAGES.invalidEmail(i);
  if (!isObjectOrAbsent(entry.data)) return BATCH_MESSAGES.objectField(i, 'data');
  if (!isObjectOrAbsent(entry.metadata)) return BATCH_MESSAGES.objectField(i, 'metadata');
  for (const field of ['data', 'metadata'] as const) {
    // By the rules of a lead's data: `metadata` is stored on every record of the mail, `data` rides in the send job.
    const problem = entry[field] == null ? undefined : storedValueProblem(entry[field], SEND_LIMITS.recipientValueBytes);
    if (problem) return BATCH_MESSAGES.storedField(i, field, problem);
  }
  return undefined;
}

/** One recipient: an address, or an object with its own name, variables and metadata (checked by the list). */
const recipientEntry = z.unknown();
z.globalRegistry.add(recipientEntry, {
  anyOf: [
    { type: 'string', format: 'email' },
    {
      type: 'object',
      required: ['email'],
      properties: {
        email: { type: 'string', format: 'email' },
        name: { type: ['string', 'null'], maxLength: MAX_NAME },
        data: { type: ['object', 'null'], description: 'Variables over the request\'s `data`: at most 16 levels deep and 32 KB as JSON.' },
        metadata: { type: ['object', 'null'], description: 'Echoed on the activity: at most 16 levels deep and 32 KB as JSON.' },
      },
    },
  ],
});

/**
 * The recipients: a non-empty list of at most 10,000, each checked in order; the first bad one is
 * named by its index. The count is a refinement, not `z.maxLength` (an abort there would silence
 * the body's missing-fields check, which comes first); the document shows `maxItems`.
 */
const recipientList = z.array(recipientEntry, { error: BATCH_MESSAGES.recipientsShape }).check(
  z.superRefine((list, ctx) => {
    if (list.length === 0) return fail(ctx, list, BATCH_MESSAGES.recipientsShape);
    if (list.length > MAX_BATCH_RECIPIENTS) return fail(ctx, list, BATCH_MESSAGES.tooMany(list.length));
    for (let i = 0; i < list.length; i++) {
      const problem = recipientProblem(list[i], i);
      if (problem) return fail(ctx, list, problem);
    }
  }),
);
z.globalRegistry.add(recipientList, { minItems: 1, maxItems: MAX_BATCH_RECIPIENTS });

/** Part 4.3 applies only the two unsubscribe headers; the others are named back to the caller, not applied. */
const customHeadersSchema = z.record(z.string(), z.unknown(), { error: 'custom_headers must be an object of header names to string values' }).check(
  z.superRefine((headers, ctx) => {
    for (const [name, raw] of Object.entries(headers)) {
      if (!APPLIED_HEADERS.has(name.toLowerCase())) continue;
      if (typeof raw !== 'string' || /[\r\n]/.test(raw) || raw.length > MAX_HEADER_VALUE) {
        return fail(ctx, headers, `custom_headers.${name} must be one line of at most ${MAX_HEADER_VALUE} characters`);
      }
    }
  }),
);

/**
 * The body of `POST /v1/send-batch`. Keys are in the order the checks run: the templateId first
 * (it decides which fields are required), then the missing-fields check of the whole body, then
 * the sender, the recipients, the headers and the rest.
 */
export const batchBodySchema = z
  .object(
    {
      templateId: z.nullish(z.string({ error: TEMPLATE_ID_MESSAGE }).check(z.refine((v) => isTemplateIdOrAbsent(v), TEMPLATE_ID_MESSAGE))),
      sender: z
        .string({ error: (issue) => `Invalid sender: ${String(issue.input)}` })
        .check(z.superRefine((value, ctx) => void (isEmail(value.trim()) || fail(ctx, value, `Invalid sender: ${value}`)))),
      recipients: recipientList,
      custom_headers: z.nullish(customHeadersSchema),
      senderName: optionalText('senderName', 256),
      subject: optionalText('subject', 998),
      html: optionalText('html'),
      text: optionalText('text'),
      data: z.nullish(z.record(z.string(), z.unknown(), { error: 'data must be an object' })),
      email_type: z.nullish(z.enum(['transactional', 'marketing', ''], { error: BATCH_MESSAGES.emailType })),
      environment: environmentSchema,
      scheduled_at: optionalText('scheduled_at'),
      timezone: optionalText('timezone'),
      dry_run: z.nullish(z.boolean({ error: 'dry_run must be a boolean' })),
    },
    { error: 'Request body must be a JSON object' },
  )
  .check(
    z.refine((b: Record<string, unknown>) => missingFields(b).length === 0, {
      error: (issue) => BATCH_MESSAGES.missing(missingFields(issue.input as Record<string, unknown>)),
      // Only with a usable templateId: a bad one is the first problem, as it decides what is required.
      when: ({ value }) => isRecord(value) && isTemplateIdOrAbsent(value.templateId),
    }),
  );

/** The required fields `body` lacks; subject and html are not needed with a template. */
function missingFields(b: Record<string, unknown>): string[] {
  const template = !(b.templateId == null || b.templateId === '');
  const missing: string[] = [];
  if (b.recipients == null) missing.push('recipients');
  if (isBlank(b.sender)) missing.push('sender');
  if (!template && isBlank(b.subject)) missing.push('subject');
  if (!template && isBlank(b.html)) missing.push('html (or templateId)');
  return missing;
}

/** A checked recipient as the fan-out takes it: the address normalised, empty parts left out. */
function toRecipient(entry: unknown): BatchRecipient {
  if (typeof entry === 'string') return { email: normalizeEmail(entry) };
  const r = entry as Record<string, unknown>;
  const recipient: BatchRecipient = { email: normalizeEmail(r.email as string) };
  if (typeof r.name === 'string' && r.name !== '') recipient.name = r.name;
  if (r.data != null) recipient.data = r.data as Record<string, unknown>;
  if (r.metadata != null) recipient.metadata = r.metadata as Record<string, unknown>;
  return recipient;
}

/** Validates a `POST /v1/send-batch` body; throws a 400 naming the first problem (and its index). */
export function parseBatchRequest(body: unknown): BatchInput {
  return toBatchInput(parseRequest(batchBodySchema, body));
}

/** A body `batchBodySchema` accepted, as the batch service takes it: recipients deduplicated, headers sorted into applied and ignored. */
export function toBatchInput(b: z.output<typeof batchBodySchema>): BatchInput {
  // A repeated address keeps its first entry.
  const seen = new Set<string>();
  const recipients = b.recipients.map(toRecipient).filter((r) => (seen.has(r.email) ? false : (seen.add(r.email), true)));
  const headers = Object.entries(b.custom_headers ?? {});
  const templateId = present(b.templateId);
  return {
    content: {
      sender: b.sender.trim(),
      senderName: present(b.senderName),
      subject: present(b.subject),
      html: present(b.html),
      text: present(b.text),
      templateId: templateId?.trim().toLowerCase(),
      data: b.data ?? undefined,
      // Batches are marketing unless told otherwise (part 4.3).
      emailType: present(b.email_type) ?? 'marketing',
      customHeaders: Object.fromEntries(headers.flatMap(([name, raw]) => (APPLIED_HEADERS.has(name.toLowerCase()) ? [[APPLIED_HEADERS.get(name.toLowerCase())!, raw as string]] : []))),
      environment: present(b.environment),
    },
    recipients,
    duplicatesRemoved: b.recipients.length - recipients.length,
    scheduledAt: present(b.scheduled_at),
    timezone: present(b.timezone),
    dryRun: b.dry_run ?? false,
    ignoredHeaders: headers.filter(([name]) => !APPLIED_HEADERS.has(name.toLowerCase())).map(([name]) => name),
  };
}
