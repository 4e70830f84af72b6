/** The answers of the console's session routes. */
import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

const expiresAt = instantSchema.check(z.meta({ description: 'When the session ends (8 hours after sign-in); sign in again after' }));

/** A project key's session. */
export const projectSessionSchema = z
  .strictObject({
    kind: z.literal('project'),
    mode: z.enum(['live', 'test']).check(z.meta({ description: 'The key\'s mode: a test key\'s console sees test mail only' })),
    project: z.strictObject({ id: uuidSchema, name: z.string(), timezone: z.nullable(z.string()) }),
    expires_at: expiresAt,
  })
  .check(z.meta({ id: 'ConsoleProjectSession', description: 'A console session made from a project key' }));

/** A partner key's session. */
export const partnerSessionSchema = z
  .strictObject({
    kind: z.literal('partner'),
    organization: z.strictObject({ id: z.string(), name: z.nullable(z.string()) }),
    expires_at: expiresAt,
  })
  .check(z.meta({ id: 'ConsolePartnerSession', description: 'A console session made from a partner key' }));

/** Either session. */
export const consoleSessionSchema = z.union([projectSessionSchema, partnerSessionSchema]).check(z.meta({ id: 'ConsoleSession', description: 'Who the console is signed in as, and until when' }));

export type ConsoleSessionAnswer = z.output<typeof consoleSessionSchema>;

/** A realistic project session. */
export const projectSessionExample: ConsoleSessionAnswer = {
  kind: 'project',
  mode: 'live',
  project: { id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34', name: 'Acme Mail', timezone: 'Europe/Berlin' },
  expires_at: '2026-11-26T17:30:00.000Z',
};
