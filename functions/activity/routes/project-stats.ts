import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectStats as readProjectStats, projectStatsQuerySchema } from '../../../shared/identities/stats/project-stats';
import { statsSeriesSchema } from '../../../shared/identities/stats/stats-answers';

const zeroBucket = { sent: 0, delivered: 0, bounced: 0, bounced_transient: 0, complained: 0, opened: 0, clicked: 0, failed: 0, suppressed: 0 };

/** `GET /v1/stats`: the project's mail per UTC day or hour, with totals and SES's rates, from the hourly counters. */
export const projectStats = defineRoute({
  method: 'GET',
  path: '/v1/stats',
  auth: 'project',
  summary: 'Sending statistics over time',
  description:
    'The project\'s sends, deliveries, bounces, complaints, opens, clicks, failures and suppressions per UTC day (`interval=day`, the default, at most 90 days) or hour (`interval=hour`, at most 168 hours), between `since` (default: 30 days or 24 hours before `until`) and `until` (default: now), with totals and the permanent-bounce and complaint rates beside SES\'s review and pause thresholds. The live key sees live mail only; the test key sees test mail only.',
  query: projectStatsQuerySchema,
  answers: {
    200: json(statsSeriesSchema, 'The series, its totals and rates', {
      success: true,
      data: {
        mode: 'live',
        interval: 'day',
        since: '2026-11-25T00:00:00.000Z',
        until: '2026-11-27T00:00:00.000Z',
        buckets: [
          { start: '2026-11-25T00:00:00.000Z', sent: 4210, delivered: 4152, bounced: 23, bounced_transient: 17, complained: 2, opened: 1804, clicked: 377, failed: 3, suppressed: 11 },
          { start: '2026-11-26T00:00:00.000Z', ...zeroBucket, sent: 3890, delivered: 3851, bounced: 19, bounced_transient: 9, complained: 1, opened: 1622, clicked: 341, suppressed: 8 },
        ],
        totals: { sent: 8100, delivered: 8003, bounced: 42, bounced_transient: 26, complained: 3, opened: 3426, clicked: 718, failed: 3, suppressed: 19 },
        rates: {
          bounce_rate: 0.005185,
          complaint_rate: 0.00037,
          bounce_review_threshold: 0.05,
          bounce_pause_threshold: 0.1,
          complaint_review_threshold: 0.001,
          complaint_pause_threshold: 0.005,
          bounce_over_review: false,
          bounce_over_pause: false,
          complaint_over_review: false,
          complaint_over_pause: false,
        },
      },
    }),
    ...errors('project', {
      400: 'interval is not day or hour; since or until is not a timestamp; since is after until; the period is longer than 90 days (day) or 168 hours (hour)',
    }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const deps = services();
    const caller = request.caller;
    return { status: 200, body: await readProjectStats(deps.db, caller.project.id, caller.mode, request.query, deps.clock.now()) };
  },
});
