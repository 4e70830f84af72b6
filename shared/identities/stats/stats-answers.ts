import * as z from '../../platform/core/zod';
import { instantSchema } from '../../platform/http/answer-fields';

const count = (description: string) => z.number().check(z.meta({ description }));

/** The counted figures, as a bucket and the totals carry them. */
const figures = {
  sent: count('Mails SES accepted (one per send, whatever its number of recipients)'),
  delivered: count('Mails that reached the recipient\'s mail server'),
  bounced: count('Permanent bounces (the address is suppressed); the figure of SES\'s bounce rate'),
  bounced_transient: count('Transient bounces (mailbox full, out of office...); not suppressed, not in the bounce rate'),
  complained: count('Complaints (marked as spam)'),
  opened: count('Mails opened at least once (first opens; machine opens included)'),
  clicked: count('Mails with at least one click (first clicks)'),
  failed: count('Mails that failed for good before or at SES (rejected, sender not verified, quota, attachment...)'),
  suppressed: count('Mails not sent because every recipient is on the suppression list'),
};

/** One UTC day or hour of the series. */
export const statsBucketSchema = z
  .strictObject({ start: instantSchema.check(z.meta({ description: 'Start of the bucket (UTC); it ends where the next starts' })), ...figures })
  .check(z.meta({ id: 'StatsBucket', description: 'The project\'s figures of one UTC day or hour, each event counted in the bucket it happened in' }));

/** The permanent-bounce and complaint rates of the period, beside SES's thresholds. */
export const sendingRatesSchema = z
  .strictObject({
    bounce_rate: count('Permanent bounces / sent over the period, as a fraction (0.012 is 1.2%); 0 when nothing was sent'),
    complaint_rate: count('Complaints / sent over the period, as a fraction (SES divides by mails sent too); 0 when nothing was sent'),
    bounce_review_threshold: count('0.05: SES puts an account under review at a 5% bounce rate'),
    bounce_pause_threshold: count('0.1: SES may pause sending at a 10% bounce rate'),
    complaint_review_threshold: count('0.001: SES puts an account under review at a 0.1% complaint rate'),
    complaint_pause_threshold: count('0.005: SES may pause sending at a 0.5% complaint rate'),
    bounce_over_review: z.boolean().check(z.meta({ description: '`bounce_rate` is at or above the review threshold' })),
    bounce_over_pause: z.boolean().check(z.meta({ description: '`bounce_rate` is at or above the pause threshold' })),
    complaint_over_review: z.boolean().check(z.meta({ description: '`complaint_rate` is at or above the review threshold' })),
    complaint_over_pause: z.boolean().check(z.meta({ description: '`complaint_rate` is at or above the pause threshold' })),
  })
  .check(
    z.meta({
      id: 'SendingRates',
      description:
        'The period\'s rates against SES\'s thresholds. SES measures its own rates over a representative volume of the whole AWS account, not over this period or this project: these are an early indication, not SES\'s figure',
    }),
  );

/** The answer of `GET /v1/stats`. */
export const statsSeriesSchema = z
  .strictObject({
    success: z.literal(true),
    data: z.strictObject({
      mode: z.enum(['live', 'test']).check(z.meta({ description: 'The traffic counted: the live key sees live mail, the test key test mail' })),
      interval: z.enum(['day', 'hour']),
      since: instantSchema.check(z.meta({ description: 'Start of the first bucket (the asked `since`, rounded down to its day or hour)' })),
      until: instantSchema.check(z.meta({ description: 'End of the last bucket (exclusive)' })),
      buckets: z.array(statsBucketSchema).check(z.meta({ description: 'Every bucket of the period, oldest first, empty ones included' })),
      totals: z.strictObject(figures).check(z.meta({ description: 'The buckets summed' })),
      rates: sendingRatesSchema,
    }),
  })
  .check(z.meta({ id: 'StatsSeries', description: 'The project\'s mail over time, per UTC day or hour, with totals and rates' }));
