/** Realistic answers of the campaign routes, for the docs (checked against their schemas in CI). */

export const CAMPAIGN_ID = '5b0e7c2d-8f1a-4c3e-9d6b-2a7f4e1c0b93';
const TEMPLATE_ID = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const SENDER_PROFILE_ID = 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f';

/** A campaign just created: `initializing`, a filtered audience, started two hours from now and spread over six. */
export const createdCampaign = {
  id: CAMPAIGN_ID,
  name: 'Spring sale',
  subject: 'Spring sale: 20% off until Sunday',
  preview_text: null,
  status: 'initializing',
  template_id: TEMPLATE_ID,
  sender_profile_id: SENDER_PROFILE_ID,
  total_recipients: 0,
  recipient_count_expected: 120000,
  emails_sent: 0,
  emails_failed: 0,
  batch_mode: false,
  batch_size: null,
  batch_interval_hours: 24,
  total_batches: null,
  current_batch: null,
  created_at: '2026-11-26T09:30:00.000Z',
  scheduled_for: '2026-11-26T11:30:00.000Z',
  started_at: null,
  completed_at: null,
  next_batch_at: null,
  select_all_recipients: true,
  send_over_hours: 6,
  variable_config: { defaults: { first_name: 'friend' }, mappings: { first_name: 'name' } },
  utm_campaign: 'spring-sale-3fa9c1',
  schedule_type: 'delay',
  audience: { kind: 'filter', filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }] } },
  pause: null,
};

/** A campaign sending, as the list and the read show it. */
export const campaignSummary = {
  id: CAMPAIGN_ID,
  name: 'Spring sale',
  subject: 'Spring sale: 20% off until Sunday',
  status: 'processing',
  created_at: '2026-11-26T09:30:00.000Z',
  scheduled_for: '2026-11-26T11:30:00.000Z',
  started_at: '2026-11-26T11:30:04.000Z',
  completed_at: null,
  total_recipients: 118342,
  emails_sent: 40210,
  emails_failed: 12,
};

/** 404 of the routes of one campaign. */
export const campaignNotFound = { error: 'NOT_FOUND', message: 'Campaign not found' };
