import { tagsOf } from './lead';
import { MAX_DATA_BYTES, MAX_TAGS } from './lead-input';

/** How a 400 names what a write brought: the request's data and its tags (`data`, `data._tags`; `tags`; `Request body`). */
export interface LimitNames {
  data: string;
  tags: string;
}

/** The names of an upsert's or a PUT's `data` (`leads[2].data` in a bulk call). */
export const dataNames = (data = 'data'): LimitNames => ({ data, tags: `${data}._tags` });

const bytesOf = (data: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(data));

/**
 * Why the data a write would leave on a lead breaks a per-lead limit, or undefined: at most MAX_TAGS
 * tags, and at most MAX_DATA_BYTES of `data` serialized (tags included), the limits a single request
 * is held to, checked on the merged result. A lead stored over a limit before these checks may still
 * be written as long as the write does not take it further over (a smaller tag list, a shorter value).
 */
export function leadLimitProblem(names: LimitNames, next: Record<string, unknown>, before: Record<string, unknown> | undefined): string | undefined {
  const tags = tagsOf(next).length;
  if (tags > MAX_TAGS && tags > tagsOf(before ?? {}).length) return `${names.tags} would give the lead more than ${MAX_TAGS} tags (${tags})`;
  const bytes = bytesOf(next);
  if (bytes > MAX_DATA_BYTES && (!before || bytes > bytesOf(before))) return `${names.data} would make the lead's data larger than ${MAX_DATA_BYTES / 1024} KB (${bytes.toLocaleString('en-US')} bytes with its tags)`;
  return undefined;
}
