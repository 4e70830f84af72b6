import type { ActivityFailure } from '../activity/activity';
import { storedValueProblem } from '../../platform/store/storable-value';
import { SEND_LIMITS } from '..';
import { nestedDeeperThan } from '../../platform/core/json-inspection';
import type { BatchRecipient } from './batch';
import { MAX_JOB_BYTES } from './batch-jobs';

/** Deepest `data` a send job can carry through JSON.stringify (the API refuses anything past 16 levels). */
const MAX_DATA_DEPTH = 64;

/** What keeps one recipient from being recorded or queued as it is: the field and why. */
export interface UnwritableProblem {
  field: 'data' | 'metadata';
  message: string;
}

/**
 * Why the fan-out cannot write this recipient's record (its `metadata` goes on the activity item,
 * within DynamoDB's nesting, number and size limits) or its send job (its `data` rides in a queue
 * message of at most 256 KB), if it cannot. The API refuses such recipients; this catches what
 * comes another way (a campaign lead's data, a batch accepted before the API's check), so that one
 * recipient fails alone rather than failing its chunk of 500 on every delivery. Depth first: a
 * deeper value would overflow the stack of JSON.stringify.
 */
export function unwritableProblem(recipient: BatchRecipient): UnwritableProblem | undefined {
  if (recipient.metadata !== undefined) {
    const problem = storedValueProblem(recipient.metadata, SEND_LIMITS.recipientValueBytes);
    if (problem) return { field: 'metadata', message: `metadata ${problem}` };
  }
  if (recipient.data !== undefined) {
    if (nestedDeeperThan(recipient.data, MAX_DATA_DEPTH)) return { field: 'data', message: `data is nested more than ${MAX_DATA_DEPTH} levels deep` };
    const bytes = Buffer.byteLength(JSON.stringify(recipient.data));
    if (bytes > MAX_JOB_BYTES) return { field: 'data', message: `data is larger than ${MAX_JOB_BYTES / 1024} KB` };
  }
  return undefined;
}

/** The recipient without its `metadata` (the record of a recipient whose metadata cannot be stored). */
export function withoutMetadata(recipient: BatchRecipient): BatchRecipient {
  const { metadata: _dropped, ...rest } = recipient;
  return rest;
}

/** The failure recorded for such a recipient: permanent, the same request would fail again. */
export function unwritableFailure(problem: UnwritableProblem): ActivityFailure {
  return { error_code: 'send_failed', error_message: `Not sent: the recipient's ${problem.message}`, permanent: true };
}
