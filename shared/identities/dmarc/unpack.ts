import { constants, gunzipSync, inflateRawSync } from 'node:zlib';

/**
 * The XML documents inside one attachment of a report mail, told by the bytes whatever the
 * declared content type: `PK\x03\x04` is a zip, `\x1f\x8b` a gzip (a gzip inside a gzip is
 * unwrapped again, to a fixed depth), `<` (after a BOM and white space) is XML. Every inflation is
 * capped (zlib's maxOutputLength stops it the moment the output passes the cap, so a bomb costs at
 * most the cap), and so is the number of zip entries and each entry's inflated size.
 */

/** Bounds of one attachment. */
export interface UnpackLimits {
  /** Bytes of all documents of one attachment together, once inflated. */
  maxInflatedBytes: number;
  /** Zip entries read (directories and non-XML names included). */
  maxZipEntries: number;
  /** Gzip or zip layers around a document. */
  maxNesting: number;
}

/** Why an attachment gave no document: `too_large` when a cap was passed, `not_a_report` when no layer is XML, `invalid` for a broken archive. */
export class UnpackRefused extends Error {
  constructor(
    readonly reason: 'too_large' | 'not_a_report' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** The kind of content the first bytes say. */
export function sniff(bytes: Buffer): 'zip' | 'gzip' | 'xml' | 'unknown' {
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  let at = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && at < 1024 && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return bytes[at] === 0x3c ? 'xml' : 'unknown';
}

/** The XML documents (as bytes) of one attachment. */
export function unpackReports(bytes: Buffer, limits: UnpackLimits): Buffer[] {
  const budget = { left: limits.maxInflatedBytes };
  return unpack(bytes, limits, budget, 0);
}

function unpack(bytes: Buffer, limits: UnpackLimits, budget: { left: number }, depth: number): Buffer[] {
  const kind = sniff(bytes);
  if (kind === 'xml') return [bytes];
  if (kind === 'unknown') throw new UnpackRefused('not_a_report', 'Neither XML, gzip nor zip');
  if (depth >= limits.maxNesting) throw new UnpackRefused('too_large', `More than ${limits.maxNesting} layers of compression`);
  if (kind === 'gzip') return unpack(gunzipCapped(bytes, budget), limits, budget, depth + 1);
  const out: Buffer[] = [];
  for (const entry of zipEntries(bytes, limits.maxZipEntries, budget)) {
    // A zip may hold a readme or a directory beside the report: only what unpacks to XML counts.
    try {
      out.push(...unpack(entry, limits, budget, depth + 1));
    } catch (error) {
      if (!(error instanceof UnpackRefused) || error.reason !== 'not_a_report') throw error;
    }
  }
  if (out.length === 0) throw new UnpackRefused('not_a_report', 'The zip holds no XML document');
  return out;
}

/** Inflates a gzip within the budget; some reporters' gzips (Mimecast) have a trailer gunzip refuses, which a raw inflate of the body reads. */
function gunzipCapped(bytes: Buffer, budget: { left: number }): Buffer {
  let out: Buffer;
  try {
    out = gunzipSync(bytes, { maxOutputLength: Math.max(1, budget.left) });
  } catch (error) {
    if (isTooLarge(error)) throw tooLarge(budget);
    out = inflateGzipBody(bytes, budget);
  }
  return spend(out, budget);
}

/** The deflate body after a gzip header (RFC 1952 section 2.3), inflated without checking the trailer. */
function inflateGzipBody(bytes: Buffer, budget: { left: number }): Buffer {
  if (bytes.length < 10 || bytes[2] !== 8) throw new UnpackRefused('invalid', 'A broken gzip');
  const flags = bytes[3]!;
  let at = 10;
  if (flags & 4) at += 2 + bytes.readUInt16LE(at);
  if (flags & 8) at = bytes.indexOf(0, at) + 1;
  if (flags & 16) at = bytes.indexOf(0, at) + 1;
  if (flags & 2) at += 2;
  if (at <= 0 || at >= bytes.length) throw new UnpackRefused('invalid', 'A broken gzip');
  try {
    return inflateRawSync(bytes.subarray(at), { maxOutputLength: Math.max(1, budget.left), finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if (isTooLarge(error)) throw tooLarge(budget);
    throw new UnpackRefused('invalid', 'A broken gzip');
  }
}

/**
 * The inflated entries of a zip, read from its central directory (sizes and offsets there; the
 * local header only for where the data starts). Stored (0) and deflate (8) entries; encrypted or
 * other methods are refused as invalid. Entry names are never used beyond skipping directories.
 */
function zipEntries(zip: Buffer, maxEntries: number, budget: { left: number }): Buffer[] {
  const eocd = findEndOfCentralDirectory(zip);
  const count = zip.readUInt16LE(eocd + 10);
  const dirSize = zip.readUInt32LE(eocd + 12);
  const dirOffset = zip.readUInt32LE(eocd + 16);
  if (count > maxEntries) throw new UnpackRefused('too_large', `The zip has more than ${maxEntries} entries`);
  if (dirOffset + dirSize > zip.length) throw new UnpackRefused('invalid', 'A broken zip');
  const out: Buffer[] = [];
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new UnpackRefused('invalid', 'A broken zip directory');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('latin1', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new UnpackRefused('invalid', 'An encrypted zip entry');
    // The declared size is a hint only (a bomb lies); the inflation below is capped by the budget anyway.
    if (size > budget.left) throw tooLarge(budget);
    if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== 0x04034b50) throw new UnpackRefused('invalid', 'A broken zip entry');
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(dataStart, Math.min(zip.length, dataStart + compressedSize));
    if (method === 0) out.push(spend(Buffer.from(data), budget));
    else if (method === 8) {
      try {
        out.push(spend(inflateRawSync(data, { maxOutputLength: Math.max(1, budget.left) }), budget));
      } catch (error) {
        if (error instanceof UnpackRefused) throw error;
        if (isTooLarge(error)) throw tooLarge(budget);
        throw new UnpackRefused('invalid', 'A broken zip entry');
      }
    } else throw new UnpackRefused('invalid', `A zip entry compressed with method ${method}`);
  }
  return out;
}

/** Offset of the End Of Central Directory record (searched from the end, past a comment of up to 64 KB). */
function findEndOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= 0 && at >= zip.length - 22 - 0xffff; at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new UnpackRefused('invalid', 'A zip without its central directory');
}

function spend(out: Buffer, budget: { left: number }): Buffer {
  if (out.length > budget.left) throw tooLarge(budget);
  budget.left -= out.length;
  return out;
}

function tooLarge(budget: { left: number }): UnpackRefused {
  return new UnpackRefused('too_large', `Inflates past the limit (${budget.left} bytes left)`);
}

function isTooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
}
