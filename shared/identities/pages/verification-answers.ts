import * as z from '../../platform/core/zod';

/** The answer of the verification page's "Verify now" (`POST /verify/{token}`): the domain and its records, nothing of the project. */
export const pageCheckSchema = z
  .strictObject({
    domain: z.string(),
    verification_status: z.enum(['pending', 'verified', 'failed']),
    can_send: z.boolean(),
    dns_records: z.array(
      z.strictObject({
        record_type: z.string(),
        name: z.string(),
        fqdn: z.string(),
        value: z.string(),
        status: z.enum(['not_set', 'propagating', 'mismatch', 'verified']),
      }),
    ),
  })
  .check(z.meta({ id: 'VerificationPageCheck', description: 'The domain after checking it now, as the public verification page shows it' }));

/** An example of the answer above. */
export const pageCheckExample = {
  domain: 'mail.example.com',
  verification_status: 'verified',
  can_send: true,
  dns_records: [
    { record_type: 'CNAME', name: 'xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4._domainkey', fqdn: 'xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4._domainkey.mail.example.com', value: 'xk4l2bq7cmoyn5tq6rhpjw3qzmyxfdf4.dkim.amazonses.com', status: 'verified' },
    { record_type: 'TXT', name: '@', fqdn: 'mail.example.com', value: 'v=spf1 include:amazonses.com ~all', status: 'not_set' },
  ],
};
