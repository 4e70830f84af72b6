/** The welcome series of docs/automations.md, the definition a new automation starts from. */

/** The example's definition (without its name), as the editor shows it: its ids are the docs' and name nothing in a project. */
export const WELCOME_SERIES = {
  trigger: { type: 'event', event: 'signed_up' },
  entry: { filter: null, reentry: 'once' },
  exit: [{ type: 'event', event: 'purchased' }],
  steps: [
    { id: 'welcome', type: 'send_email', template_id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', sender_profile_id: 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f', next: 'wait_2_days' },
    { id: 'wait_2_days', type: 'wait', duration: { days: 2 }, next: 'opened_welcome' },
    { id: 'opened_welcome', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'nudge' },
    {
      id: 'nudge',
      type: 'send_email',
      template_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      sender_profile_id: 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f',
      subject: 'Did you see this, {{name}}?',
    },
  ],
};

/** The example's name. */
export const WELCOME_SERIES_NAME = 'Welcome series';
