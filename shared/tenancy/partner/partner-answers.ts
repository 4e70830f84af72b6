/* The answers of the partner routes (4.13), as partner-projects.ts, partner-domains.ts and partner-senders.ts build them. */
import * as z from '../../platform/core/zod';
import { projectReputationSchema } from '../../identities/reputation/reputation-answers';
import { senderSchema } from '../../identities/domains/sender-answers';
import { COUNTER_FIELDS } from '../../identities/stats/domain-stats';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

const verificationStatusSchema = z.enum(['pending', 'verified', 'failed']);

/** The fields of a DNS record as part 2 shows it. */
const dnsRecordFields = {
  id: uuidSchema,
  record_type: z.enum(['TXT', 'CNAME', 'MX']),
  name: z.string(),
  value: z.string(),
  purpose: z.enum(['provider_verification', 'dkim', 'spf', 'dmarc', 'return_path', 'reply_mx', 'tracking_cname']),
  status: z.enum(['not_set', 'propagating', 'mismatch', 'verified']),
  ttl_hint: z.number(),
  priority: z.optional(z.number()),
  last_checked_at: z.nullable(instantSchema),
};

/** A record of a domain pack: part 2's record with the full name to publish. */
export const partnerDnsRecordSchema = z
  .strictObject({ ...dnsRecordFields, fqdn: z.string() })
  .check(z.meta({ id: 'PartnerDnsRecord', description: 'A DNS record to publish at `fqdn` (`name` is relative to the domain, `@` for the apex)' }));

/** A reply or tracking subdomain, or null when the domain has none. */
export const partnerSubdomainSchema = z
  .nullable(
    z.strictObject({
      domain: z.string(),
      status: z.enum(['pending', 'verified']),
      records: z.array(z.strictObject(dnsRecordFields)),
      last_checked_at: z.nullable(instantSchema),
      https: z.optional(z.enum(['pending', 'provisioning', 'active', 'failed'])),
      https_detail: z.optional(z.string()),
    }),
  )
  .check(z.meta({ id: 'PartnerSubdomain', description: 'A reply or tracking subdomain (tracking ones say whether `https` is served yet); null when there is none' }));

const packFields = {
  domain: z.string(),
  identity_id: uuidSchema,
  verification_status: verificationStatusSchema,
  can_send: z.boolean(),
  records: z.array(partnerDnsRecordSchema),
  verification_url: z.nullable(z.string()),
  reply_domain: partnerSubdomainSchema,
  tracking_domain: partnerSubdomainSchema,
};

/** The domain pack of partner answers: the identity, its records (part 2's 8, then reply and tracking), the verification page. */
export const partnerDomainPackSchema = z
  .strictObject(packFields)
  .check(z.meta({ id: 'PartnerDomainPack', description: 'A sending domain with the records to publish and its public verification page (null until it has a token)' }));

/** An onboarding step that failed (`errors[]`, `warnings[]`). */
export const partnerStepProblemSchema = z
  .strictObject({ step: z.enum(['domain', 'reply_domain', 'tracking_domain', 'verification_link']), error_code: z.string(), error: z.string() })
  .check(z.meta({ id: 'PartnerStepProblem', description: 'An onboarding step that failed: `domain` in `errors[]`; `reply_domain`, `tracking_domain` or `verification_link` in `warnings[]`' }));

/** An onboarding step left as it was (`skipped[]`). */
export const partnerStepSkippedSchema = z
  .strictObject({ step: z.enum(['reply_domain', 'tracking_domain']), reason: z.string() })
  .check(z.meta({ id: 'PartnerStepSkipped', description: 'A reply or tracking domain that already existed and was left as it is' }));

/** A sender as part 2 shows it (defined with the domains' answers, which list senders too). */
export const partnerSenderSchema = senderSchema;

/** A project as part 2 shows it. */
export const partnerProjectSchema = z
  .strictObject({
    id: uuidSchema,
    name: z.string(),
    slug: z.string(),
    timezone: z.nullable(z.string()),
    default_timezone: z.string(),
    country: z.nullable(z.string()),
    webhook_url: z.nullable(z.string()),
    webhook_url_dev: z.nullable(z.string()),
    inbound_webhook_url: z.nullable(z.string()),
    inbound_webhook_url_dev: z.nullable(z.string()),
    inbound_webhook_environments: z.record(z.string(), z.string()),
    disabled_at: z.nullable(instantSchema),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'PartnerProject', description: 'A client project (its keys are never shown again after creation)' }));

/** `PATCH` and `reactivate`: the project as it now is. */
export const partnerProjectAnswerSchema = z
  .strictObject({ project: partnerProjectSchema })
  .check(z.meta({ id: 'PartnerProjectAnswer', description: 'The project as it now is' }));

/** `POST /v1/partner/projects`: the project, its keys when new, and the onboarded domain when one was given. */
export const partnerProjectCreatedSchema = z
  .strictObject({
    project_id: uuidSchema,
    slug: z.string(),
    api_key: z.optional(z.string()),
    test_api_key: z.optional(z.string()),
    existing: z.optional(z.literal(true)),
    domain: z.optional(partnerDomainPackSchema),
    sender: z.optional(partnerSenderSchema),
    partial: z.optional(z.boolean()),
    errors: z.optional(z.array(partnerStepProblemSchema)),
    warnings: z.optional(z.array(partnerStepProblemSchema)),
    skipped: z.optional(z.array(partnerStepSkippedSchema)),
  })
  .check(
    z.meta({
      id: 'PartnerProjectCreated',
      description:
        'A new project with its keys (shown once), or the existing one of this `external_key` (`existing: true`, no keys). With a domain and sender: ' +
        '`domain`, `sender`, `warnings`, `skipped`, `errors` and `partial`; a failed domain step gives `partial: true` and `errors[]` (retry with the domains POST)',
    }),
  );

/** A project in the organization's list. */
export const partnerProjectSummarySchema = z
  .strictObject({ id: uuidSchema, name: z.string(), slug: z.string(), created_at: instantSchema, disabled_at: z.nullable(instantSchema) })
  .check(z.meta({ id: 'PartnerProjectSummary', description: 'A client project in a list' }));

/** `GET /v1/partner/projects`. */
export const partnerProjectListSchema = z
  .strictObject({ projects: z.array(partnerProjectSummarySchema) })
  .check(z.meta({ id: 'PartnerProjectList', description: 'The organization\'s client projects, oldest first' }));

/** A domain as lists show it. */
export const partnerDomainSummarySchema = z
  .strictObject({ domain: z.string(), identity_id: uuidSchema, verification_status: verificationStatusSchema, can_send: z.boolean() })
  .check(z.meta({ id: 'PartnerDomainSummary', description: 'A sending domain and its state' }));

/** `GET /v1/partner/projects/{projectId}`. */
export const partnerProjectOverviewSchema = z
  .strictObject({
    project: partnerProjectSchema,
    domains: z.array(partnerDomainSummarySchema),
    senders: z.array(partnerSenderSchema),
    health: z
      .strictObject({ can_send: z.boolean(), status: z.enum(['healthy', 'warning', 'critical']), issues: z.array(z.string()), reputation: projectReputationSchema })
      .check(
        z.meta({
          id: 'PartnerProjectHealth',
          description: 'Whether the project can send, its domains\' and its reputation\'s issues (`critical` when it cannot send, at least `warning` while its marketing is paused), and its reputation',
        }),
      ),
  })
  .check(z.meta({ id: 'PartnerProjectOverview', description: 'A project with its domains, senders and health' }));

/** `DELETE /v1/partner/projects/{projectId}`. */
export const partnerProjectDisabledSchema = z
  .strictObject({ project_id: uuidSchema, disabled: z.literal(true) })
  .check(z.meta({ id: 'PartnerProjectDisabled', description: 'The project is disabled: sending stops, nothing is deleted' }));

/** `POST /v1/partner/projects/{projectId}/domains`: the pack, unwrapped, with the sender and the best-effort steps. */
export const partnerDomainOnboardedSchema = z
  .strictObject({
    ...packFields,
    sender: partnerSenderSchema,
    reused: z.boolean(),
    warnings: z.array(partnerStepProblemSchema),
    skipped: z.array(partnerStepSkippedSchema),
  })
  .check(z.meta({ id: 'PartnerDomainOnboarded', description: 'The domain pack with its sender; `reused` when the domain was registered already' }));

/** `GET /v1/partner/projects/{projectId}/domains`. */
export const partnerDomainListSchema = z
  .strictObject({ domains: z.array(z.strictObject({ domain: z.string(), identity_id: uuidSchema, verification_status: verificationStatusSchema, can_send: z.boolean(), verification_url: z.nullable(z.string()) })) })
  .check(z.meta({ id: 'PartnerDomainList', description: 'The project\'s domains; `verification_url` is null for a domain without a page token (reading never creates one)' }));

/** `GET /v1/partner/projects/{projectId}/domains/{domain}`: the pack as stored, no lookups. */
export const partnerDomainSchema = z
  .strictObject({ ...packFields, skipped: z.array(partnerStepSkippedSchema).check(z.maxLength(0)) })
  .check(z.meta({ id: 'PartnerDomain', description: 'The domain pack as last checked (no lookups); `skipped` is always empty' }));

/** `POST /v1/partner/projects/{projectId}/domains/{domain}/verify`: the pack after the check, with the provider's words. */
export const partnerDomainVerifiedSchema = z
  .strictObject({
    ...packFields,
    details: z.nullable(z.strictObject({ domain_verification: z.string(), dkim_verification: z.string(), mail_from_status: z.string() })),
  })
  .check(z.meta({ id: 'PartnerDomainVerified', description: 'The domain pack after a forced check of identity, DKIM and return path; reply and tracking state is read-only' }));

/** `GET /v1/partner/projects/{projectId}/senders`. */
export const partnerSenderListSchema = z
  .strictObject({ senders: z.array(partnerSenderSchema) })
  .check(z.meta({ id: 'PartnerSenderList', description: 'The project\'s senders' }));

/** `POST /v1/partner/projects/{projectId}/senders`. */
export const partnerSenderCreatedSchema = z
  .strictObject({
    ...partnerSenderSchema.shape,
    path: z.enum(['domain', 'magic_link']),
    warning: z.optional(z.string()),
  })
  .check(
    z.meta({
      id: 'PartnerSenderCreated',
      description: 'A sender authenticated by its verified domain (`path: domain`), or waiting for its mailbox owner (`path: magic_link`, with a warning: no DKIM)',
    }),
  );

/** `POST /v1/partner/projects/{projectId}/api-key/rotate`. */
export const partnerKeyRotatedSchema = z
  .strictObject({ project_id: uuidSchema, mode: z.enum(['live', 'test']), api_key: z.string(), rotated_at: instantSchema })
  .check(z.meta({ id: 'PartnerKeyRotated', description: 'The new key (shown once); the old one stopped working' }));

const counters = Object.fromEntries(COUNTER_FIELDS.map((field) => [field, z.number()])) as Record<(typeof COUNTER_FIELDS)[number], z.ZodMiniNumber>;
/** Permanent bounces as a percentage (0 to 100) of the live mails sent. */
const hardBounceRateSchema = z.number().check(z.meta({ description: 'Permanent bounces as a percentage (0 to 100, two decimals) of the live mails sent' }));

/** `GET /v1/partner/projects/{projectId}/stats`. */
export const partnerStatsSchema = z
  .strictObject({
    project_id: uuidSchema,
    period: z.strictObject({ since: instantSchema, until: instantSchema }),
    totals: z.strictObject({ ...counters, hard_bounce_rate: hardBounceRateSchema }),
    domains: z.array(z.strictObject({ sender_domain: z.string(), ...counters, hard_bounce_rate: hardBounceRateSchema })),
  })
  .check(z.meta({ id: 'PartnerStats', description: 'Sent, delivered, bounced, complained, opened and clicked over the period (the days it spans), in total and per sender domain' }));

/** `GET /v1/partner/whoami`. */
export const partnerWhoAmISchema = z
  .strictObject({
    organization: z
      .strictObject({ id: uuidSchema, name: z.string(), created_at: instantSchema, root_project_id: z.nullable(uuidSchema) })
      .check(z.meta({ id: 'PartnerOrganization', description: 'The organization the key belongs to' })),
    partner: z
      .strictObject({
        key_id: z.nullable(z.string()),
        max_projects: z.nullable(z.number()),
        active_projects: z.number(),
        remaining_projects: z.nullable(z.number()),
      })
      .check(z.meta({ id: 'PartnerQuota', description: 'The key and the project quota: `max_projects` null is unlimited; active client projects exclude the root project' })),
  })
  .check(z.meta({ id: 'PartnerWhoAmI', description: 'The organization behind the partner key and its project quota' }));
