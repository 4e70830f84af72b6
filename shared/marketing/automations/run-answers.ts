/** The answers of the runs, enrolment and statistics routes of the `automations` group (run-service.ts builds them). */
import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import type { RunState } from './definition';

/** A run's states. */
export const RUN_STATES = ['active', 'waiting', 'completed', 'exited', 'failed'] as const satisfies readonly RunState[];

const maybeInstant = z.nullable(instantSchema);

/** A run as the API shows it. */
export const automationRunSchema = z
  .strictObject({
    id: uuidSchema,
    automation_id: uuidSchema,
    version: z.number(),
    lead_id: uuidSchema,
    email: z.string(),
    state: z.enum(RUN_STATES),
    step: z.nullable(z.string()),
    started_at: instantSchema,
    updated_at: instantSchema,
    ended_at: maybeInstant,
    end_reason: z.nullable(z.string()),
    due_at: maybeInstant,
    wait_event: z.nullable(z.string()),
    error: z.nullable(z.string()),
  })
  .check(z.meta({ id: 'AutomationRun', description: 'One lead\'s pass through one version of an automation: `active` while a step runs, `waiting` in a wait, then `completed`, `exited` or `failed`' }));

/** One entry of a run's timeline. */
export const runStepEntrySchema = z
  .strictObject({
    seq: z.number(),
    step_id: z.string(),
    type: z.string(),
    at: instantSchema,
    outcome: z.string().check(z.meta({ description: '`sent`, `skipped_suppressed`, `waiting`, `branch`, `updated`, `posted`, `failed` or `exited`' })),
    detail: z.record(z.string(), z.unknown()),
    next: z.nullable(z.string()),
  })
  .check(z.meta({ id: 'AutomationRunStep', description: 'A step the run began (its seq-th), and what came of it' }));

export const runAnswerSchema = z
  .strictObject({ success: z.literal(true), data: z.strictObject({ ...automationRunSchema.shape, timeline: z.array(runStepEntrySchema) }) })
  .check(z.meta({ id: 'AutomationRunWithTimeline', description: 'A run and its timeline, oldest step first' }));

export const runListAnswerSchema = z
  .strictObject({ success: z.literal(true), data: z.array(automationRunSchema), next_cursor: z.nullable(z.string()) })
  .check(z.meta({ id: 'AutomationRunList', description: 'An automation\'s runs, newest first' }));

export const enrollAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    enrolled: z.number().check(z.meta({ description: 'Leads queued to enter (the entry filter is checked as they enter)' })),
    already_enrolled: z.number().check(z.meta({ description: 'Leads the re-entry rule keeps out' })),
    not_found: z.array(z.string()).check(z.meta({ description: 'Lead ids and emails of no lead of the project' })),
    not_eligible: z.number().check(z.meta({ description: 'Leads the entry filter keeps out (its tag and attribute conditions; event conditions are checked as they enter)' })),
  })
  .check(z.meta({ id: 'AutomationEnrollment', description: 'What an enrolment queued' }));

const stepStatsSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  entered: z.number(),
  completed: z.number(),
  exited: z.number(),
  failed: z.number(),
  waiting: z.number(),
  sent: z.number(),
  delivered: z.number(),
  opened: z.number(),
  clicked: z.number(),
});

export const statsAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    data: z.strictObject({
      runs: z.strictObject({ entered: z.number(), active: z.number(), waiting: z.number(), completed: z.number(), exited: z.number(), failed: z.number() }),
      steps: z.array(stepStatsSchema),
    }),
  })
  .check(z.meta({ id: 'AutomationStats', description: 'Runs by state and figures per step of the current version, from counters (a few may lag a worker batch)' }));

/** An enrolment request. */
export const enrollBodySchema = z.object({
  lead_ids: z.optional(z.array(z.string())),
  emails: z.optional(z.array(z.string())),
  properties: z.optional(z.record(z.string(), z.unknown())),
});

/** The runs list's query. */
export const runListQuerySchema = z.object({
  state: z.optional(z.string().check(z.meta({ description: `One of ${RUN_STATES.join(', ')}` }))),
  per_page: z.optional(z.string().check(z.meta({ description: '1 to 100 (default 50)' }))),
  cursor: z.optional(z.string().check(z.meta({ description: 'The previous answer\'s `next_cursor`' }))),
});

const RUN_ID = '9b2f4c1a-7d3e-5a8b-9c0d-1e2f3a4b5c6d';
const AUTOMATION_ID = '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34';

export const runExample: z.output<typeof automationRunSchema> = {
  id: RUN_ID,
  automation_id: AUTOMATION_ID,
  version: 1,
  lead_id: 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f',
  email: 'ada@example.com',
  state: 'waiting',
  step: 'wait-2-days',
  started_at: '2026-11-26T09:30:00.000Z',
  updated_at: '2026-11-26T09:30:01.000Z',
  ended_at: null,
  end_reason: null,
  due_at: '2026-11-28T09:30:01.000Z',
  wait_event: null,
  error: null,
};

export const runTimelineExample: z.output<typeof runStepEntrySchema>[] = [
  { seq: 1, step_id: 'welcome', type: 'send_email', at: '2026-11-26T09:30:00.000Z', outcome: 'sent', detail: { activity_id: '5d7e9f1a-2b3c-5d4e-8f6a-7b8c9d0e1f2a' }, next: 'wait-2-days' },
  { seq: 2, step_id: 'wait-2-days', type: 'wait', at: '2026-11-26T09:30:01.000Z', outcome: 'waiting', detail: { until: '2026-11-28T09:30:01.000Z' }, next: null },
];

export const statsExample: z.output<typeof statsAnswerSchema> = {
  success: true,
  data: {
    runs: { entered: 1200, active: 3, waiting: 410, completed: 700, exited: 85, failed: 2 },
    steps: [
      { id: 'welcome', type: 'send_email', entered: 1200, completed: 1198, exited: 0, failed: 2, waiting: 0, sent: 1190, delivered: 1170, opened: 640, clicked: 120 },
      { id: 'wait-2-days', type: 'wait', entered: 1198, completed: 788, exited: 0, failed: 0, waiting: 410, sent: 0, delivered: 0, opened: 0, clicked: 0 },
    ],
  },
};
