import { parse } from 'csv-parse';
import { csvRow, jsonRow, parseCsvHeader, type ImportRow } from './import-rows';
import { ImportFileError, type ImportFormat } from './lead-import';

/** Longest record or line: a file that is not what it claims fails fast instead of filling memory. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** A row read from the file, with the byte offset just past it (where a resumed run starts). */
export interface SourceRow {
  readonly row: ImportRow;
  readonly end: number;
}

/** What a run reads: the file from `offset` on, the row count before it, and (CSV) the known header. */
export interface SourcePosition {
  readonly offset: number;
  readonly rows: number;
  readonly columns?: readonly string[];
}


/**
 * Streams the rows of a file from a position, one at a time: a million-row file is never held in
 * memory. `onHeader` receives the CSV header read at offset 0 (with the offset past it).
 */
export function readRows(format: ImportFormat, stream: NodeJS.ReadableStream, from: SourcePosition, onHeader: (columns: string[], end: number) => void): AsyncGenerator<SourceRow> {
  return format === 'csv' ? csvRows(stream, from, onHeader) : jsonLines(stream, from);
}

async function* csvRows(stream: NodeJS.ReadableStream, from: SourcePosition, onHeader: (columns: string[], end: number) => void): AsyncGenerator<SourceRow> {
  // `info.bytes` counts the bytes consumed through the record's line break (UTF-8, as on disk).
  const parser = stream.pipe(parse({ info: true, bom: from.offset === 0, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, max_record_size: MAX_RECORD_BYTES }));
  // pipe() does not forward a source error: a dropped S3 connection must end the parse, not stall it.
  stream.on('error', (error) => parser.destroy(error));
  let columns = from.columns ? [...from.columns] : undefined;
  let row = from.rows;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      const end = from.offset + info.bytes;
      if (!columns) {
        columns = parseCsvHeader(record);
        onHeader(columns, end);
        continue;
      }
      yield { row: csvRow(++row, columns, record), end };
    }
  } catch (error) {
    // csv-parse's own errors carry a CSV_* code and say where (line and column).
    if ((error as { code?: string }).code?.startsWith('CSV_')) throw new ImportFileError(`The CSV could not be read: ${(error as Error).message}`);
    throw error;
  }
  if (!columns) throw new ImportFileError('The CSV file is empty: it needs a header row with an email column');
}

async function* jsonLines(stream: NodeJS.ReadableStream, from: SourcePosition): AsyncGenerator<SourceRow> {
  let pending = Buffer.alloc(0);
  let consumed = from.offset;
  let row = from.rows;
  const take = function* (line: Buffer, length: number) {
    consumed += length;
    const text = line.toString('utf8').replace(/^\uFEFF/, '').trim();
    if (text !== '') yield { row: jsonRow(++row, text), end: consumed };
  };
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    let newline: number;
    while ((newline = pending.indexOf(0x0a)) >= 0) {
      yield* take(pending.subarray(0, newline), newline + 1);
      pending = pending.subarray(newline + 1);
    }
    if (pending.length > MAX_RECORD_BYTES) throw new ImportFileError(`Line ${row + 1} is longer than ${MAX_RECORD_BYTES / 1024 / 1024} MB`);
  }
  yield* take(pending, pending.length);
}
