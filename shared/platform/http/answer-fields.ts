import * as z from '../core/zod';

/**
 * Fields the answers of many features share, for the answer schemas next to the code that builds
 * each (shared/<feature>/<feature>-answers.ts), which shared/mail-pipeline/sending's cannot serve without a cycle.
 */

/** An id: a UUID (v4). */
export const uuidSchema = z.string().check(z.meta({ format: 'uuid', examples: ['3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34'] }));
/** An instant as ISO 8601 in UTC. */
export const instantSchema = z.string().check(z.meta({ format: 'date-time', examples: ['2026-11-26T09:30:00.000Z'] }));

/**
 * The schema of a bounded list's `pagination` block (boundedPaginationBlock), under a component id
 * of the list's own (`TemplatePagination`): ids are unique across the API.
 */
export function boundedPaginationSchema(id: string) {
  return z
    .strictObject({
      page: z.number(),
      per_page: z.number(),
      total: z.number().check(z.meta({ description: 'Entries up to 1,000 past this page; a lower bound when `total_is_estimate`' })),
      total_pages: z.number(),
      total_is_estimate: z.boolean(),
      next_cursor: z.nullable(z.string()).check(z.meta({ description: 'Pass as `cursor` to read the next page; null at the end of the list' })),
    })
    .check(z.meta({ id, description: 'Where this page sits in the list, and the cursor of the next' }));
}
