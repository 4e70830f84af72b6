/** What DynamoDB can store of a client's JSON value (a lead's data, a recipient's metadata, event properties). */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// DynamoDB's number range, and its nesting limit (32) with room for the item's own levels.
const MAX_NUMBER = 9.9e125;
const MIN_NUMBER = 1e-130;
const MAX_DEPTH = 16;

/** Why a JSON value cannot be stored as is (also for custom event properties): numbers out of DynamoDB's range, empty keys, deep nesting. */
export function storableProblem(value: unknown, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return `is nested more than ${MAX_DEPTH} levels deep`;
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    if (!Number.isFinite(value) || abs > MAX_NUMBER || (abs !== 0 && abs < MIN_NUMBER)) return 'holds a number out of range';
  } else if (Array.isArray(value)) {
    for (const v of value) {
      const problem = storableProblem(v, depth + 1);
      if (problem) return problem;
    }
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '') return 'may not have an empty key';
      const problem = storableProblem(v, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * Why a JSON value cannot be stored within `maxBytes`: storableProblem, then its serialized size.
 * The depth check comes first: serializing a value nested thousands deep would overflow the stack.
 */
export function storedValueProblem(value: unknown, maxBytes: number): string | undefined {
  return storableProblem(value) ?? (Buffer.byteLength(JSON.stringify(value)) > maxBytes ? `is larger than ${maxBytes / 1024} KB` : undefined);
}
