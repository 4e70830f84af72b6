/** Realistic requests and answers of the automation routes, for the docs (checked against their schemas in CI). */

export const AUTOMATION_ID = '0d6f3a2e-5b7c-4e19-8a4d-2c9e7b1f6a53';
const WELCOME_TEMPLATE_ID = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const NUDGE_TEMPLATE_ID = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const SENDER_PROFILE_ID = 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f';

/** The welcome series: on `signed_up`, a mail, two days, a second mail unless the first was opened; a purchase ends it. */
export const welcomeSeriesBody = {
  name: 'Welcome series',
  trigger: { type: 'event', event: 'signed_up' },
  entry: { filter: null, reentry: 'once' },
  exit: [{ type: 'event', event: 'purchased' }],
  steps: [
    { id: 'welcome', type: 'send_email', template_id: WELCOME_TEMPLATE_ID, sender_profile_id: SENDER_PROFILE_ID, email_type: 'marketing', next: 'wait_2_days' },
    { id: 'wait_2_days', type: 'wait', duration: { days: 2 }, next: 'opened_welcome' },
    { id: 'opened_welcome', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'nudge' },
    { id: 'nudge', type: 'send_email', template_id: NUDGE_TEMPLATE_ID, sender_profile_id: SENDER_PROFILE_ID, subject: 'Did you see this, {{name}}?', email_type: 'marketing', next: null },
  ],
};

const times = { created_at: '2026-11-26T09:30:00.000Z', updated_at: '2026-11-26T09:30:00.000Z', activated_at: null, paused_at: null, archived_at: null };

/** The welcome series just created. */
export const draftAutomation = { id: AUTOMATION_ID, ...welcomeSeriesBody, status: 'draft', version: 1, ...times };

/** The welcome series once active. */
export const activeAutomation = { ...draftAutomation, status: 'active', updated_at: '2026-11-26T10:02:11.000Z', activated_at: '2026-11-26T10:02:11.000Z' };

/** The welcome series edited while active: version 2 (runs in flight finish on version 1). */
export const editedAutomation = { ...activeAutomation, version: 2, updated_at: '2026-11-27T08:15:40.000Z' };

/** The welcome series paused. */
export const pausedAutomation = { ...activeAutomation, status: 'paused', updated_at: '2026-11-28T16:45:03.000Z', paused_at: '2026-11-28T16:45:03.000Z' };

/** The welcome series in a list. */
export const automationSummary = {
  id: AUTOMATION_ID,
  name: 'Welcome series',
  status: 'active',
  version: 1,
  trigger_type: 'event',
  ...times,
  updated_at: '2026-11-26T10:02:11.000Z',
  activated_at: '2026-11-26T10:02:11.000Z',
};

export const automationNotFound = { error: 'Automation not found', code: 'NOT_FOUND' };
export const automationArchived = { error: 'Automation is archived', code: 'INVALID_STATE' };
export const automationInvalid = { error: `Step "nudge": template ${NUDGE_TEMPLATE_ID} does not exist`, code: 'AUTOMATION_INVALID', step: 'nudge' };
