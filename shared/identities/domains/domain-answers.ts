import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import { projectReputationSchema, reputationExamples } from '../reputation/reputation-answers';

/*
 * The answers of the domain routes (part 2's sending domain identity, DNS record and sender profile;
 * 4.12), as domain-presenter.ts, sender-service.ts and subdomains.ts build them. Exported for every
 * route that shows a domain (the partner routes show the same identity and records).
 */

const verificationStatusSchema = z.enum(['pending', 'verified', 'failed']);
const recordStatusSchema = z.enum(['not_set', 'propagating', 'mismatch', 'verified']);

/** The fields of a DNS record as part 2 shows it; partner routes add `fqdn`. */
const dnsRecordShape = {
  id: uuidSchema,
  record_type: z.enum(['TXT', 'CNAME', 'MX']),
  name: z.string().check(z.meta({ description: 'Relative to the domain (`@` for the apex)' })),
  value: z.string(),
  purpose: z.enum(['provider_verification', 'dkim', 'spf', 'dmarc', 'return_path', 'reply_mx', 'tracking_cname']),
  status: recordStatusSchema,
  ttl_hint: z.number().check(z.int(), z.meta({ description: 'Seconds' })),
  priority: z.optional(z.number().check(z.int(), z.meta({ description: 'Reply MX only; the return-path MX carries its priority inside `value`' }))),
  last_checked_at: z.nullable(instantSchema),
};

/** One DNS record to publish, with its last status (part 2). */
export const dnsRecordSchema = z
  .strictObject(dnsRecordShape)
  .check(z.meta({ id: 'DnsRecord', description: 'A DNS record to publish and its status at the last check (null `last_checked_at`: never checked)' }));

/** A DNS record as the partner routes show it: with its full name, ready to publish. */
export const dnsRecordWithFqdnSchema = z
  .strictObject({ ...dnsRecordShape, fqdn: z.string() })
  .check(z.meta({ id: 'DnsRecordWithFqdn', description: 'A DNS record to publish, with `fqdn` (its full name), and its status at the last check' }));

const subdomainShape = {
  domain: z.string(),
  status: z.enum(['pending', 'verified']),
  records: z.array(dnsRecordSchema),
  last_checked_at: z.nullable(instantSchema),
};

/** A reply domain's state (`reply.<domain>`, its one MX record). */
export const replyDomainSchema = z
  .strictObject(subdomainShape)
  .check(z.meta({ id: 'ReplyDomain', description: 'The reply subdomain of a sending domain: its MX record and whether it is verified' }));

/** A tracking domain's state (`track.<domain>`, its one CNAME record), and whether links on it are served over HTTPS yet. */
export const trackingDomainSchema = z
  .strictObject({
    ...subdomainShape,
    https: z.enum(['pending', 'provisioning', 'active', 'failed']).check(z.meta({ description: 'Whether https://<domain> is served yet' })),
    https_detail: z.optional(z.string()),
  })
  .check(z.meta({ id: 'TrackingDomain', description: 'The tracking subdomain of a sending domain: its CNAME record, whether it is verified, and its HTTPS state' }));

/** The fields of a sending domain identity (part 2), shared by the answers that show one. */
export const domainShape = {
  identity_id: uuidSchema,
  domain: z.string(),
  verification_status: verificationStatusSchema,
  can_send: z.boolean(),
  sender_profile_id: uuidSchema,
  verification_token: z.string(),
  dkim_tokens: z.array(z.string()),
  dns_records: z.array(dnsRecordSchema),
  reply_domain: z.nullable(replyDomainSchema),
  tracking_domain: z.nullable(trackingDomainSchema),
  verification_url: z.nullable(z.string().check(z.meta({ description: 'The public verification page; null when the request reached no public host' }))),
};

/** A sending domain identity with its records (part 2). */
export const domainSchema = z
  .strictObject(domainShape)
  .check(z.meta({ id: 'Domain', description: 'A sending domain identity: its verification state, DKIM tokens, the DNS records to publish, its reply and tracking subdomains' }));

/** What the provider reported at the last verification (4.12's `details`). */
export const verificationDetailsSchema = z
  .strictObject({
    domain_verification: z.string(),
    dkim_verification: z.string(),
    mail_from_status: z.string(),
  })
  .check(z.meta({ id: 'DomainVerificationDetails', description: 'The provider\'s verdicts at the last check: domain, DKIM and custom MAIL FROM' }));

/** A sender profile (part 2). */
export const senderProfileSchema = z
  .strictObject({
    id: uuidSchema,
    from_name: z.string(),
    from_email: z.string(),
    domain_authenticated: z.boolean(),
    sender_source: z.enum(['manual', 'magic_link', 'auto-own-email', 'admin']),
    can_send: z.boolean(),
    email_verified: z.boolean().check(z.meta({ description: 'False until the mailbox owner confirms, for magic-link senders' })),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'SenderProfile', description: 'A sender address of the project and whether it can send' }));

/** The answer of `POST /domains/register` (201). */
export const domainRegisteredSchema = z
  .strictObject({
    success: z.literal(true),
    ...domainShape,
    sender: z.strictObject({ from_name: z.string(), from_email: z.string(), domain_authenticated: z.boolean() }),
    reused: z.boolean().check(z.meta({ description: 'True when an earlier registration of the domain was reconciled' })),
  })
  .check(z.meta({ id: 'DomainRegistered', description: 'The registered domain with its records to publish, and its sender' }));

/** The answer of `GET /domains/{domain}/dns-records`. */
export const domainDnsRecordsSchema = z
  .strictObject({
    success: z.literal(true),
    identity_id: uuidSchema,
    domain: z.string(),
    verification_status: verificationStatusSchema,
    dns_records: z.array(dnsRecordSchema),
  })
  .check(z.meta({ id: 'DomainDnsRecords', description: 'The stored records of a domain and their last status (no DNS lookups)' }));

/** The answer of `POST /domains/{domain}/verify`. */
export const domainVerifiedSchema = z
  .strictObject({
    success: z.literal(true),
    ...domainShape,
    sender_profile: z.nullable(z.strictObject({ id: uuidSchema, from_name: z.string(), from_email: z.string(), domain_authenticated: z.boolean() })),
    details: z.optional(verificationDetailsSchema),
  })
  .check(z.meta({ id: 'DomainVerification', description: 'The domain after checking it with the provider now: its state, records, sender and the provider\'s verdicts' }));

/** The answer of `GET /domains/{domain}/status`. */
export const domainStatusSchema = z
  .strictObject({
    success: z.literal(true),
    identity_id: uuidSchema,
    domain: z.string(),
    verification_status: verificationStatusSchema,
    can_send: z.boolean(),
    send_ready: z.boolean().check(z.meta({ description: 'Whether the provider has enabled sending (`domain.send_ready` was emitted)' })),
    details: z.nullable(verificationDetailsSchema),
    last_checked_at: z.nullable(instantSchema),
  })
  .check(z.meta({ id: 'DomainStatus', description: 'Whether the domain can send, and its state at the last check' }));

/** The answer of `POST /domains/{domain}/recreate`. */
export const domainRecreatedSchema = z
  .strictObject({ success: z.literal(true), recreated: z.literal(true), ...domainShape })
  .check(z.meta({ id: 'DomainRecreated', description: 'The domain with a new identity: new DKIM tokens and records, back to pending' }));

/** The answer of `GET /domains/{domain}/domain-connect`. */
export const domainConnectSchema = z
  .strictObject({
    success: z.literal(true),
    domain: z.string(),
    supported: z.boolean().check(z.meta({ description: 'Whether the domain\'s DNS provider can create the records with one click' })),
    provider_name: z.optional(z.string()),
    apply_url: z.optional(z.string().check(z.meta({ description: 'Present when supported: opens the DNS provider, which creates the records' }))),
  })
  .check(z.meta({ id: 'DomainConnect', description: 'Whether the DNS provider supports Domain Connect, and the link that applies the records' }));

/** The answer of `POST /domains/reply`. */
export const replyDomainRegisteredSchema = z
  .strictObject({
    success: z.literal(true),
    domain: z.string().check(z.meta({ description: 'The sending domain' })),
    reply_domain: replyDomainSchema,
    existing: z.boolean().check(z.meta({ description: 'True when the reply domain was registered before (returned as it is)' })),
  })
  .check(z.meta({ id: 'ReplyDomainRegistered', description: 'The reply domain of a sending domain, new or as registered before' }));

/** The answer of `POST /domains/tracking`. */
export const trackingDomainRegisteredSchema = z
  .strictObject({
    success: z.literal(true),
    domain: z.string().check(z.meta({ description: 'The sending domain' })),
    tracking_domain: trackingDomainSchema,
    existing: z.boolean().check(z.meta({ description: 'True when the tracking domain was registered before (returned as it is)' })),
  })
  .check(z.meta({ id: 'TrackingDomainRegistered', description: 'The tracking domain of a sending domain, new or as registered before' }));

const healthStatusSchema = z.enum(['healthy', 'warning', 'critical']);

/** The answer of `GET /domains/health` (4.12). */
export const domainHealthSchema = z
  .strictObject({
    summary: z.strictObject({ total: z.number().check(z.int()), healthy: z.number().check(z.int()), warning: z.number().check(z.int()), critical: z.number().check(z.int()) }),
    data: z.array(
      z
        .strictObject({
          domain: z.string(),
          status: healthStatusSchema,
          can_send: z.boolean(),
          sent: z.number().check(z.int(), z.meta({ description: 'Mails sent from the domain over the last 30 days' })),
          hard_bounce_rate: z.number().check(z.meta({ description: 'Permanent bounces over the last 30 days, in percent of sent' })),
          issues: z.array(z.string()).check(z.meta({ description: 'What to fix, critical first, in words a person can act on' })),
        })
        .check(z.meta({ id: 'DomainHealthEntry', description: 'One domain\'s health: its status, sends, permanent-bounce rate and issues' })),
    ),
    reputation: projectReputationSchema,
  })
  .check(z.meta({ id: 'DomainHealth', description: 'The health of every domain of the project, how many are in each status, and the project\'s reputation' }));

/** The answer of `POST /domains/verify-email` (201). */
export const mailboxVerificationSchema = z
  .strictObject({
    success: z.literal(true),
    sender: senderProfileSchema,
    message: z.string(),
    warning: z.string(),
  })
  .check(z.meta({ id: 'MailboxVerificationStarted', description: 'The magic-link sender, and whether its confirmation mail is on its way or it is already verified' }));

/** A reply subdomain in the domain list: its name and whether its MX is verified. */
const replyDomainSummarySchema = z
  .strictObject({ domain: z.string(), status: z.enum(['pending', 'verified']) })
  .check(z.meta({ id: 'ReplyDomainSummary', description: 'The reply subdomain of a sending domain and whether its MX record is verified' }));

/** A tracking subdomain in the domain list: its name, whether its CNAME is verified, and its HTTPS state. */
const trackingDomainSummarySchema = z
  .strictObject({
    domain: z.string(),
    status: z.enum(['pending', 'verified']),
    https: z.enum(['pending', 'provisioning', 'active', 'failed']).check(z.meta({ description: 'Whether https://<domain> is served yet; links use the domain once `active`' })),
  })
  .check(z.meta({ id: 'TrackingDomainSummary', description: 'The tracking subdomain of a sending domain, whether its CNAME is verified, and its HTTPS state' }));

/** One sending domain of `GET /domains`. */
export const domainListEntrySchema = z
  .strictObject({
    domain: z.string(),
    identity_id: uuidSchema,
    verification_status: verificationStatusSchema,
    can_send: z.boolean(),
    send_ready: z.boolean().check(z.meta({ description: 'Whether the provider has enabled sending (`domain.send_ready` was emitted)' })),
    details: z.nullable(verificationDetailsSchema).check(z.meta({ description: 'The SES identity\'s state at the last check (domain, DKIM, custom MAIL FROM); null before the first' })),
    reply_domain: z.nullable(replyDomainSummarySchema),
    tracking_domain: z.nullable(trackingDomainSummarySchema),
    last_checked_at: z.nullable(instantSchema),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'DomainListEntry', description: 'A sending domain: its verification state, the SES identity\'s state, and its reply and tracking subdomains in short' }));

/** The answer of `GET /domains`. */
export const domainListSchema = z
  .strictObject({ success: z.literal(true), data: z.array(domainListEntrySchema), pagination: boundedPaginationSchema('DomainPagination') })
  .check(z.meta({ id: 'DomainList', description: 'A page of the project\'s sending domains, newest first' }));

const exampleRecords = [
  { id: '6b1f0c2e-8d4a-4e7b-9c3f-1a2b3c4d5e6f', record_type: 'TXT', name: '_amazonses', value: 'pmBGN/7MjnfhTKUZ06Enqq1PeGUaOkw8lGhcfwefcHU=', purpose: 'provider_verification', status: 'not_set', ttl_hint: 300, last_checked_at: null },
  { id: '7c2a1d3f-9e5b-4f8c-8d4a-2b3c4d5e6f70', record_type: 'CNAME', name: 'xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4._domainkey', value: 'xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4.dkim.amazonses.com', purpose: 'dkim', status: 'not_set', ttl_hint: 1800, last_checked_at: null },
  { id: '8d3b2e4a-0f6c-4a9d-9e5b-3c4d5e6f7081', record_type: 'TXT', name: '@', value: 'v=spf1 include:amazonses.com ~all', purpose: 'spf', status: 'not_set', ttl_hint: 300, last_checked_at: null },
  { id: '9e4c3f5b-1a7d-4b0e-8f6c-4d5e6f708192', record_type: 'MX', name: 'send', value: '10 feedback-smtp.eu-west-1.amazonses.com', purpose: 'return_path', status: 'not_set', ttl_hint: 300, last_checked_at: null },
];

/** A registered domain as the examples show it. */
export const domainExample = {
  identity_id: '2c9d4e1a-7b3f-4c8e-9a1d-5e6f7a8b9c0d',
  domain: 'mail.example.com',
  verification_status: 'pending',
  can_send: false,
  sender_profile_id: '4e1f6a3c-9d5b-4e0a-8c3f-7a8b9c0d1e2f',
  verification_token: 'pmBGN/7MjnfhTKUZ06Enqq1PeGUaOkw8lGhcfwefcHU=',
  dkim_tokens: ['xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4', 'o3hbm5wqzzt5dnvnb4p4kx7ewk5rtl3e', 'h6xgq4nfblr5ny6xowt2c5ldpxsxk2cj'],
  dns_records: exampleRecords,
  reply_domain: null,
  tracking_domain: null,
  verification_url: 'https://mail-api.example.com/verify/Xq3vL8pN2rT6yW1zB4cF7hJ0kM5sD9gA',
};

/** Examples of the answers above. */
export const domainExamples = {
  list: {
    success: true,
    data: [
      {
        domain: 'news.example.com',
        identity_id: '5b0e7d2c-3a9f-4e1b-8c6d-2f4a1e9b7c30',
        verification_status: 'pending',
        can_send: false,
        send_ready: false,
        details: null,
        reply_domain: null,
        tracking_domain: null,
        last_checked_at: null,
        created_at: '2026-11-26T14:05:12.000Z',
      },
      {
        domain: domainExample.domain,
        identity_id: domainExample.identity_id,
        verification_status: 'verified',
        can_send: true,
        send_ready: true,
        details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS', mail_from_status: 'SUCCESS' },
        reply_domain: { domain: 'reply.mail.example.com', status: 'verified' },
        tracking_domain: { domain: 'track.mail.example.com', status: 'verified', https: 'active' },
        last_checked_at: '2026-11-26T09:30:00.000Z',
        created_at: '2026-11-20T10:15:00.000Z',
      },
    ],
    pagination: { page: 1, per_page: 50, total: 2, total_pages: 1, total_is_estimate: false, next_cursor: null },
  },
  registered: {
    success: true,
    ...domainExample,
    sender: { from_name: 'Example', from_email: 'hello@mail.example.com', domain_authenticated: false },
    reused: false,
  },
  dnsRecords: { success: true, identity_id: domainExample.identity_id, domain: domainExample.domain, verification_status: 'pending', dns_records: exampleRecords },
  verified: {
    success: true,
    ...domainExample,
    verification_status: 'verified',
    can_send: true,
    dns_records: exampleRecords.map((r) => ({ ...r, status: r.purpose === 'spf' ? 'not_set' : 'verified', last_checked_at: '2026-11-26T09:30:00.000Z' })),
    sender_profile: { id: domainExample.sender_profile_id, from_name: 'Example', from_email: 'hello@mail.example.com', domain_authenticated: true },
    details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS', mail_from_status: 'SUCCESS' },
  },
  status: {
    success: true,
    identity_id: domainExample.identity_id,
    domain: domainExample.domain,
    verification_status: 'pending',
    can_send: true,
    send_ready: true,
    details: { domain_verification: 'SUCCESS', dkim_verification: 'PENDING', mail_from_status: 'PENDING' },
    last_checked_at: '2026-11-26T09:30:00.000Z',
  },
  recreated: { success: true, recreated: true, ...domainExample },
  domainConnect: {
    success: true,
    domain: 'mail.example.com',
    supported: true,
    provider_name: 'Cloudflare',
    apply_url: 'https://dash.cloudflare.com/domainconnect/v2/domainTemplates/providers/example.com/services/mail/apply?domain=mail.example.com',
  },
  reply: {
    success: true,
    domain: 'mail.example.com',
    reply_domain: {
      domain: 'reply.mail.example.com',
      status: 'pending',
      records: [{ id: 'a05d4f6c-2b8e-4c1f-9a7d-5e6f708192a3', record_type: 'MX', name: 'reply', value: 'inbound-smtp.eu-west-1.amazonaws.com', priority: 10, purpose: 'reply_mx', status: 'not_set', ttl_hint: 300, last_checked_at: null }],
      last_checked_at: null,
    },
    existing: false,
  },
  tracking: {
    success: true,
    domain: 'mail.example.com',
    tracking_domain: {
      domain: 'track.mail.example.com',
      status: 'pending',
      records: [{ id: 'b16e5a7d-3c9f-4d2a-8b8e-6f708192a3b4', record_type: 'CNAME', name: 'track', value: 'd111111abcdef8.cloudfront.net', purpose: 'tracking_cname', status: 'not_set', ttl_hint: 300, last_checked_at: null }],
      last_checked_at: null,
      https: 'pending',
    },
    existing: false,
  },
  health: {
    summary: { total: 1, healthy: 0, warning: 1, critical: 0 },
    data: [
      {
        domain: 'mail.example.com',
        status: 'warning',
        can_send: true,
        sent: 1250,
        hard_bounce_rate: 0.4,
        issues: ['No DMARC record found at _dmarc.mail.example.com: publish the DMARC TXT record (p=none is enough to start).'],
      },
    ],
    reputation: reputationExamples.healthy,
  },
  mailbox: {
    success: true,
    sender: {
      id: 'c27f6b8e-4d0a-4e3b-9c9f-708192a3b4c5',
      from_name: 'Owner',
      from_email: 'owner@example.net',
      domain_authenticated: false,
      sender_source: 'magic_link',
      can_send: false,
      email_verified: false,
      created_at: '2026-11-26T09:30:00.000Z',
    },
    message: 'Verification email sent to owner@example.net; the sender can send once its owner clicks the link',
    warning: 'This sender has no DKIM signature of its own domain; register the domain for authenticated sending',
  },
} as const;

/** The answer of `GET /domains/{domain}`: the identity with its records, its state at the last check, and its senders. */
export const domainViewSchema = z
  .strictObject({
    success: z.literal(true),
    ...domainShape,
    send_ready: z.boolean().check(z.meta({ description: 'Whether the provider has enabled sending (`domain.send_ready` was emitted)' })),
    details: z.nullable(verificationDetailsSchema),
    last_checked_at: z.nullable(instantSchema),
    created_at: instantSchema,
    senders: z.array(senderProfileSchema).check(z.meta({ description: 'The project\'s sender addresses on this domain' })),
  })
  .check(z.meta({ id: 'DomainView', description: 'One sending domain as stored (no lookups): its records, reply and tracking subdomains, state at the last check, and senders' }));

/** An example of `GET /domains/{domain}`. */
export const domainViewExample = {
  success: true,
  ...domainExample,
  send_ready: false,
  details: null,
  last_checked_at: null,
  created_at: '2026-11-26T14:05:12.000Z',
  senders: [
    {
      id: domainExample.sender_profile_id,
      from_name: 'Example',
      from_email: 'hello@mail.example.com',
      domain_authenticated: false,
      sender_source: 'manual',
      can_send: false,
      email_verified: true,
      created_at: '2026-11-26T14:05:12.000Z',
    },
  ],
} as const;
