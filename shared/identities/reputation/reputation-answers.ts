import * as z from '../../platform/core/zod';

const instant = z.string().check(z.meta({ format: 'date-time' }));

/** Why the project's marketing is paused. */
export const marketingPauseSchema = z
  .strictObject({
    reason: z.enum(['bounce_rate', 'complaint_rate']),
    rate: z.number().check(z.meta({ description: 'The measured rate, as a fraction (0.045 is 4.5%)' })),
    threshold: z.number().check(z.meta({ description: 'The warning level it reached, as a fraction' })),
    sample: z.number().check(z.int(), z.meta({ description: 'Live mails sent in the measured window' })),
    since: instant.check(z.meta({ description: 'The start of the measured window' })),
    at: instant.check(z.meta({ description: 'When marketing paused' })),
    message: z.string().check(z.meta({ description: 'What happened and what to do, in words a person can act on' })),
  })
  .check(z.meta({ id: 'MarketingPause', description: 'Why the reputation watch paused the project\'s marketing mail, and since when' }));

/** A project's reputation as the watch sees it: its rates over the window, the levels, and the pause if any. */
export const projectReputationSchema = z
  .strictObject({
    ses_tenant: z
      .nullable(
        z.strictObject({
          name: z.string(),
          sending_status: z.string().check(z.meta({ description: "SES's sending status of the tenant (`ENABLED`, `REINSTATED`, `DISABLED`), `unknown` when SES could not be asked" })),
        }),
      )
      .check(z.meta({ description: 'The project\'s own SES tenant, or null when it shares the account\'s reputation' })),
    marketing_paused: z.boolean().check(z.meta({ description: 'True while campaigns, marketing batches and automations\' marketing sends are paused; transactional mail still goes out' })),
    pause: z.nullable(marketingPauseSchema),
    window: z.strictObject({
      since: instant.check(z.meta({ description: 'The last 7 days, or from the hour marketing was last resumed' })),
      sent: z.number().check(z.int()),
      bounced: z.number().check(z.int(), z.meta({ description: 'Permanent bounces' })),
      complained: z.number().check(z.int()),
      bounce_rate: z.number().check(z.meta({ description: 'Permanent bounces per live mail sent, as a fraction' })),
      complaint_rate: z.number().check(z.meta({ description: 'Complaints per live mail sent, as a fraction' })),
    }),
    levels: z
      .strictObject({
        min_sample: z.number().check(z.int()),
        bounce_pause: z.number(),
        complaint_pause: z.number(),
        bounce_review: z.number(),
        complaint_review: z.number(),
      })
      .check(z.meta({ description: 'Marketing pauses at `bounce_pause` or `complaint_pause` over at least `min_sample` mails; SES reviews an account at `bounce_review` and `complaint_review`' })),
    issues: z.array(z.string()),
  })
  .check(z.meta({ id: 'ProjectReputation', description: 'The project\'s permanent-bounce and complaint rates against SES\'s thresholds, and whether its marketing mail is paused' }));

/** `POST /v1/partner/projects/{projectId}/marketing/resume`. */
export const marketingResumedSchema = z
  .strictObject({
    project_id: z.string().check(z.meta({ format: 'uuid' })),
    marketing_paused: z.literal(false),
    was_paused: z.boolean().check(z.meta({ description: 'False when marketing was not paused (a repeated resume changes nothing more)' })),
    resumed_at: instant,
    campaigns_resumed: z.number().check(z.int(), z.meta({ description: 'Campaigns that had paused with the project and run again' })),
  })
  .check(z.meta({ id: 'MarketingResumed', description: 'Marketing mail runs again; the watch measures from now on' }));

export const reputationExamples = {
  healthy: {
    ses_tenant: null,
    marketing_paused: false,
    pause: null,
    window: { since: '2026-11-19T10:00:00.000Z', sent: 12_480, bounced: 96, complained: 3, bounce_rate: 0.007692, complaint_rate: 0.00024 },
    levels: { min_sample: 500, bounce_pause: 0.04, complaint_pause: 0.0008, bounce_review: 0.05, complaint_review: 0.001 },
    issues: [],
  },
  resumed: { project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87', marketing_paused: false, was_paused: true, resumed_at: '2026-11-26T11:02:00.000Z', campaigns_resumed: 2 },
};
