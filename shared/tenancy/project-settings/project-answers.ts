import * as z from '../../platform/core/zod';
import { partnerProjectSchema } from '../partner/partner-answers';

/** `GET` and `PATCH /v1/project`: the calling project as part 2 shows it (the shape partner routes show). */
export const projectSettingsAnswerSchema = z
  .strictObject({ success: z.literal(true), project: partnerProjectSchema })
  .check(z.meta({ id: 'ProjectSettings', description: 'The calling project\'s settings: name, time zone, country and webhook URLs (never its keys or secrets)' }));

/** A project's settings as the examples show them. */
export const projectSettingsExample = {
  success: true,
  project: {
    id: '3f6c2a1e-8b4d-4c7a-9e2f-5d1b0a9c8e7f',
    name: 'Acme Newsletters',
    slug: 'acme-newsletters-4f2a9c',
    timezone: 'Europe/Paris',
    default_timezone: 'Europe/Paris',
    country: 'FR',
    webhook_url: 'https://hooks.acme.example/mail',
    webhook_url_dev: 'https://staging-hooks.acme.example/mail',
    inbound_webhook_url: null,
    inbound_webhook_url_dev: null,
    inbound_webhook_environments: { staging: 'https://staging.acme.example/hooks/mail' },
    disabled_at: null,
    created_at: '2026-10-02T08:41:17.000Z',
  },
};
