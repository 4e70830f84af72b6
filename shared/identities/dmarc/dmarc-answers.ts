import * as z from '../../platform/core/zod';
import type { DmarcSummary } from './dmarc-summary';

/** The query of `GET /domains/{domain}/dmarc`: `days`, the window up to today (default 30, at most 90). */
export const dmarcQuerySchema = z.object({
  days: z.optional(z.string().check(z.refine((v) => /^\d{1,2}$/.test(v) && Number(v) >= 1 && Number(v) <= 90, 'days must be a whole number from 1 to 90'))),
});

/** A query `dmarcQuerySchema` accepted. */
export type DmarcQuery = z.output<typeof dmarcQuerySchema>;

const count = () => z.number().check(z.int());
const dayText = z.string().check(z.meta({ description: 'A UTC day, YYYY-MM-DD' }));

const dmarcDaySchema = z
  .strictObject({
    day: dayText,
    messages: count(),
    dmarc_pass: count(),
    pass_rate: z.number().check(z.meta({ description: 'Percent of the day\'s messages that passed DMARC (aligned DKIM or aligned SPF), one decimal' })),
    dkim_aligned: count(),
    spf_aligned: count(),
    quarantined: count(),
    rejected: count(),
  })
  .check(z.meta({ id: 'DmarcDay', description: 'One UTC day of the reports receivers sent about the domain (days without reports are left out)' }));

const failingSourceSchema = z
  .strictObject({
    source_ip: z.string().check(z.meta({ description: 'The IP address (or `other`: the smallest sources of a report with more than 200)' })),
    messages: count(),
    failed: count(),
    ses: z.boolean().check(z.meta({ description: 'The source sends through Amazon SES: its mail carries SES\'s own DKIM signature or its MAIL FROM passed SPF' })),
    reporters: z.array(z.string()),
    last_seen: dayText,
    reverse_dns: z.nullable(z.string()).check(z.meta({ description: 'The reverse DNS name of a failing source that is not SES, looked up when its report arrived; null when unknown' })),
  })
  .check(z.meta({ id: 'DmarcFailingSource', description: 'A source IP some of whose mail claiming the domain failed DMARC' }));

/** The answer of `GET /domains/{domain}/dmarc` and its partner twin. */
export const dmarcSummarySchema = z
  .strictObject({
    domain: z.string(),
    window: z.strictObject({ days: count(), from: dayText, to: dayText }),
    totals: z.strictObject({ messages: count(), dmarc_pass: count(), pass_rate: z.nullable(z.number()), reports: count() }),
    days: z.array(dmarcDaySchema),
    failing_sources: z.array(failingSourceSchema),
    advice: z
      .strictObject({
        stage: z.enum(['no_reports', 'fix_failures', 'collecting', 'ready_for_quarantine', 'ready_for_reject', 'enforcing']),
        policy: z.nullable(z.string()),
        aligned_days: count(),
        message: z.string(),
      })
      .check(z.meta({ id: 'DmarcAdvice', description: 'What to do next with the domain\'s DMARC policy: p=quarantine after 14 days of fully aligned mail under p=none, then p=reject after 14 more' })),
  })
  .check(z.meta({ id: 'DmarcSummary', description: 'What receivers\' DMARC aggregate reports say of the domain over the window' }));

/** A realistic answer. */
export const dmarcSummaryExample: DmarcSummary = {
  domain: 'mail.example.com',
  window: { days: 30, from: '2026-10-29', to: '2026-11-27' },
  totals: { messages: 1520, dmarc_pass: 1496, pass_rate: 98.4, reports: 41 },
  days: [
    { day: '2026-11-25', messages: 740, dmarc_pass: 728, pass_rate: 98.4, dkim_aligned: 728, spf_aligned: 716, quarantined: 0, rejected: 0 },
    { day: '2026-11-26', messages: 780, dmarc_pass: 768, pass_rate: 98.5, dkim_aligned: 768, spf_aligned: 760, quarantined: 0, rejected: 0 },
  ],
  failing_sources: [{ source_ip: '203.0.113.4', messages: 24, failed: 24, ses: false, reporters: ['google.com', 'Outlook.com'], last_seen: '2026-11-26', reverse_dns: 'mail.forwarder.example.net' }],
  advice: {
    stage: 'fix_failures',
    policy: 'none',
    aligned_days: 0,
    message:
      'Some mail claiming mail.example.com fails DMARC, most from 203.0.113.4, which is not SES: if it is yours, send it through this API or sign it with DKIM; otherwise it is spoofed. Keep p=none until 14 days pass without failures.',
  },
};
