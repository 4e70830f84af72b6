/** Realistic answers of the partner routes, for the docs (each checked against its schema in CI). */

const PROJECT_ID = '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87';
const IDENTITY_ID = '7c9e2b4a-1d3f-4a6b-8e5c-2f1a0b9d8c7e';
const CREATED_AT = '2026-11-20T10:15:00.000Z';
const CHECKED_AT = '2026-11-26T09:30:00.000Z';

/** A project as part 2 shows it. */
export const projectExample = {
  id: PROJECT_ID,
  name: 'Acme',
  slug: 'acme',
  timezone: 'Europe/Paris',
  default_timezone: 'Europe/Paris',
  country: 'FR',
  webhook_url: 'https://hooks.acme.example/mail',
  webhook_url_dev: null,
  inbound_webhook_url: null,
  inbound_webhook_url_dev: null,
  inbound_webhook_environments: {},
  disabled_at: null,
  created_at: CREATED_AT,
};

/** A sender on a verified domain. */
export const senderExample = {
  id: '5a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d',
  from_name: 'Acme',
  from_email: 'hello@mail.acme.example',
  domain_authenticated: true,
  sender_source: 'admin' as const,
  can_send: true,
  email_verified: true,
  created_at: CREATED_AT,
};

const record = (id: string, record_type: string, name: string, value: string, purpose: string, ttl_hint: number) => ({
  id,
  record_type,
  name,
  value,
  purpose,
  status: 'verified',
  ttl_hint,
  last_checked_at: CHECKED_AT,
  fqdn: name === '@' ? 'mail.acme.example' : `${name}.mail.acme.example`,
});

/** The domain pack of a verified domain (some of its records). */
export const domainPackExample = {
  domain: 'mail.acme.example',
  identity_id: IDENTITY_ID,
  verification_status: 'verified',
  can_send: true,
  records: [
    record('1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b', 'TXT', '_mailroom', 'q2VzdGVkLXRva2VuLWZvci1hY21l', 'provider_verification', 300),
    record('2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d', 'CNAME', 'k7x2p9._domainkey', 'k7x2p9.dkim.amazonses.com', 'dkim', 1800),
    record('3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e', 'TXT', '@', 'v=spf1 include:amazonses.com ~all', 'spf', 300),
  ],
  verification_url: 'https://api.mail.example.com/verify/vp_3kT9xQ2mLr8sW4aZ',
  reply_domain: {
    domain: 'reply.mail.acme.example',
    status: 'verified',
    records: [
      {
        id: '4c5d6e7f-8a9b-4c0d-9e1f-3a4b5c6d7e8f',
        record_type: 'MX',
        name: 'reply',
        value: 'inbound-smtp.us-east-1.amazonaws.com',
        priority: 10,
        purpose: 'reply_mx',
        status: 'verified',
        ttl_hint: 300,
        last_checked_at: CHECKED_AT,
      },
    ],
    last_checked_at: CHECKED_AT,
  },
  tracking_domain: null,
};

/** Counters of one period. */
export const countsExample = { sent: 1250, sent_test: 40, delivered: 1231, hard_bounced: 6, soft_bounced: 9, complained: 1, unique_opens: 612, unique_clicks: 154, hard_bounce_rate: 0.48 };
