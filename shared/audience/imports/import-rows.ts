import { AppError } from '../../platform/core/errors';
import { isObject, parseLeadInput, type LeadInput } from '../leads/lead-input';
import { TAGS_KEY } from '../leads/lead';
import { ImportFileError } from './lead-import';
import { RESERVED_KEYS, findReservedKey, reservedKeyMessage } from '../../platform/core/reserved-keys';

/** One row of a file, read and checked: a lead to upsert, or why not. */
export type ImportRow = { row: number; email: string; input: LeadInput } | { row: number; email: string; error: string };

/** CSV columns with a meaning of their own; every other column becomes a `data` field. */
const SPECIAL = new Set(['email', 'segment_ids', 'tags', 'storeplatform_customer_id']);

/** Splits a list cell (`a;b`, `a|b` or `a, b`) into its non-empty items. */
const listCell = (cell: string) => cell.split(/[;|,]/).map((v) => v.trim()).filter(Boolean);

/** Checks a CSV header: names trimmed and lowercased, an `email` column present, no name twice. */
export function parseCsvHeader(record: readonly string[]): string[] {
  const columns = record.map((c) => c.trim().toLowerCase());
  if (!columns.includes('email')) throw new ImportFileError('The CSV header has no email column');
  const twice = columns.find((c, i) => c !== '' && columns.indexOf(c) !== i);
  if (twice) throw new ImportFileError(`The CSV header names the column ${twice} twice`);
  // A cell of a `__proto__` column would be assigned to the row's prototype and lost without a word.
  const reserved = columns.find((c) => RESERVED_KEYS.has(c));
  if (reserved) throw new ImportFileError(`The CSV header names the column ${reserved}: __proto__, constructor and prototype are reserved`);
  return columns;
}

/**
 * A CSV record as the API's lead item: `email`; `segment_ids` and `tags` as lists; the customer id;
 * every other non-empty cell as a string field of `data`. Then the API's own validation.
 */
export function csvRow(row: number, columns: readonly string[], record: readonly string[]): ImportRow {
  const item: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = (record[i] ?? '').trim();
    if (cell === '' || column === '') return;
    if (column === 'segment_ids') item.segment_ids = listCell(cell);
    else if (column === 'tags') data[TAGS_KEY] = listCell(cell);
    else if (SPECIAL.has(column)) item[column] = cell;
    else data[column] = cell;
  });
  if (Object.keys(data).length > 0) item.data = data;
  return checked(row, item);
}

/** A JSON line as the API's lead item (`email`, `data`, `segment_ids`, `storeplatform_customer_id`). */
export function jsonRow(row: number, line: string): ImportRow {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { row, email: '', error: 'Line is not valid JSON' };
  }
  if (!isObject(value)) return { row, email: '', error: 'Line must be a JSON object' };
  return checked(row, value);
}

/** Runs the API's validation (shared/audience/leads/lead-input.ts) so that an import refuses what POST /v1/leads refuses, with the same words. */
function checked(row: number, item: Record<string, unknown>): ImportRow {
  const email = typeof item.email === 'string' ? item.email.trim().slice(0, 320) : '';
  // The API refuses these keys when it parses a body (shared/platform/http/api-handler.ts); a row, with the same words.
  const reserved = findReservedKey(item);
  if (reserved) return { row, email, error: reservedKeyMessage(reserved) };
  try {
    const input = parseLeadInput(item);
    return { row, email: input.email, input };
  } catch (error) {
    if (error instanceof AppError) return { row, email, error: error.message };
    throw error;
  }
}
