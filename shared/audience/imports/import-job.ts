import * as z from '../../platform/core/zod';

/** A message of the `imports` queue: run the import from its checkpoint (the record, not the message, says where). */
export const importJobSchema = z.object({ kind: z.literal('run'), project_id: z.string(), import_id: z.string() });

export type ImportJob = z.infer<typeof importJobSchema>;

/** Parses a queue message body; a malformed one throws (and lands in the dead-letter queue). */
export const parseImportJob = (body: string): ImportJob => importJobSchema.parse(JSON.parse(body));
