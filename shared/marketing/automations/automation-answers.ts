import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import { entrySchema, exitRuleSchema, stepSchema, triggerSchema } from './automation-request';
import type { AutomationStatus } from './definition';

/** An automation's statuses, in their order. */
export const AUTOMATION_STATUSES = ['draft', 'active', 'paused', 'archived'] as const satisfies readonly AutomationStatus[];

export const automationStatusSchema = z.enum(AUTOMATION_STATUSES).check(
  z.meta({
    id: 'AutomationStatus',
    description: '`draft` (editable, takes no entries), `active` (takes entries), `paused` (takes none; runs that wake are held until it is active again), `archived` (final)',
  }),
);

const maybeInstant = z.nullable(instantSchema);

const summaryFields = {
  id: uuidSchema,
  name: z.string(),
  status: automationStatusSchema,
  version: z.number().check(z.meta({ description: 'The version new runs start on; an edit of an automation that ever ran writes the next one' })),
  created_at: instantSchema,
  updated_at: instantSchema,
  activated_at: maybeInstant,
  paused_at: maybeInstant,
  archived_at: maybeInstant,
};

/** An automation with its current definition (automation-presenter.ts `presentAutomation`). */
export const automationSchema = z
  .strictObject({
    ...summaryFields,
    trigger: triggerSchema,
    entry: entrySchema,
    exit: z.array(exitRuleSchema),
    steps: z.array(stepSchema).check(z.meta({ description: 'The graph: the run starts at the first step; `next` (and `yes`/`no`, `on_event`/`on_timeout`) name the step that follows, null ends the run' })),
  })
  .check(z.meta({ id: 'Automation', description: 'An automation: its status, its current version and that version\'s definition' }));

/** An automation in a list: its definition left out (read one automation for it). */
export const automationSummarySchema = z
  .strictObject({ ...summaryFields, trigger_type: z.enum(['event', 'lead_created', 'tag_added', 'segment_entered', 'date', 'manual']) })
  .check(z.meta({ id: 'AutomationSummary', description: 'An automation in a list: its trigger\'s type, its definition left out' }));

/** The answer of create, read, update, activate and pause. */
export const automationAnswerSchema = z.strictObject({ success: z.literal(true), data: automationSchema });

/** The answer of `GET /v1/automations`. */
export const automationListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(automationSummarySchema),
  pagination: boundedPaginationSchema('AutomationPagination'),
});

/** The answer of `DELETE /v1/automations/:id`: a draft is deleted, anything else archived. */
export const automationDeletedAnswerSchema = z.union([
  z.strictObject({ success: z.literal(true), deleted: z.literal(true) }),
  z.strictObject({ success: z.literal(true), archived: z.literal(true) }),
]);

/** 404 of the routes of one automation (another project's is the same answer). */
export const automationNotFoundSchema = z.strictObject({ error: z.literal('Automation not found'), code: z.literal('NOT_FOUND') });

/** 409: the graph cannot run, or the project lacks what it names; `step` names the step (null: the trigger or an exit rule). */
export const automationInvalidSchema = z
  .strictObject({ error: z.string(), code: z.literal('AUTOMATION_INVALID'), step: z.nullable(z.string()) })
  .check(z.meta({ id: 'AutomationInvalid', description: 'An activation check failed: the message names the step (`Step "second": template ... does not exist`)' }));

/** 409: the automation's status does not allow the request (an archived automation, a pause of a draft...). */
export const automationInvalidStateSchema = z
  .strictObject({ error: z.string(), code: z.literal('INVALID_STATE') })
  .check(z.meta({ id: 'AutomationInvalidState', description: 'The automation\'s status does not allow this (`Automation is archived`)' }));

/** 409: the automation changed while the request wrote it (a retry resolves it). */
export const automationConflictSchema = z.strictObject({ error: z.string(), code: z.literal('CONFLICT') });

/** Every 409 a route of one automation gives. */
export const automationConflictsSchema = z.union([automationInvalidSchema, automationInvalidStateSchema, automationConflictSchema]);
/** The 409s of a route that runs no activation checks. */
export const automationStateConflictsSchema = z.union([automationInvalidStateSchema, automationConflictSchema]);
