import { domainStatsSchema } from '../../../shared/mail-pipeline/activity/activity-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { domainStats as readDomainStats, domainStatsQuerySchema } from '../../../shared/identities/stats/domain-stats-report';

/** `GET /v1/domain-stats` (4.11): figures per sender domain over a period, from the daily counters. */
export const domainStats = defineRoute({
  method: 'GET',
  path: '/v1/domain-stats',
  auth: 'project',
  summary: 'Statistics per sender domain',
  query: domainStatsQuerySchema,
  answers: {
    200: json(domainStatsSchema, 'Figures per sender domain', {
      success: true,
      period: { since: '2026-10-27T09:30:00.000Z', until: '2026-11-26T09:30:00.000Z' },
      data: [
        {
          sender_domain: 'mail.example.com',
          total_sent: 12840,
          total_delivered: 12702,
          hard_bounced: 61,
          soft_bounced: 77,
          complained: 3,
          unique_opens: 5120,
          unique_clicks: 1304,
          hard_bounce_rate: 0.48,
        },
      ],
    }),
    ...errors('project', { 400: 'since or until is not a timestamp, or since is after until' }),
  },
  access: { table: 'read' },
  handle: async (request) => {
    const deps = services();
    return { status: 200, body: await readDomainStats(deps.db, request.caller.project.id, request.query, deps.clock.now()) };
  },
});
