import { simpleParser } from 'mailparser';
import { readAggregateReport, ReportRefused, type AggregateReport } from './aggregate-report';
import { UnpackRefused, unpackReports } from './unpack';
import { readXml, XmlRefused } from './xml-reader';

/**
 * The aggregate reports of one received mail (RFC 7489 section 7.2.1.1: a MIME message with the
 * report in one part). Every part is tried, whatever its declared type (receivers label reports
 * application/zip, application/gzip, text/xml and application/octet-stream alike), and each part
 * may hold several documents (a zip of several XML files). Every step is bounded: see the limits.
 */

/** The bounds of a report mail; anything past one is refused, never read further. */
export const DMARC_LIMITS = {
  /** The raw mail as stored (reports are small; RFC 7489 notes receivers rarely send over 10 MB). */
  maxMailBytes: 10 * 1024 * 1024,
  /** MIME parts tried per mail. */
  maxParts: 10,
  /** Bytes once inflated, per part (every layer of gzip or zip together). */
  maxInflatedBytes: 20 * 1024 * 1024,
  maxZipEntries: 10,
  /** Layers of compression around one document (a gzip in a gzip in a zip is 3). */
  maxNesting: 3,
  /** Documents read per mail. */
  maxDocuments: 10,
  maxRecords: 10_000,
  /** Elements per document: room for maxRecords records of about 25 elements each. */
  maxElements: 300_000,
  maxDepth: 16,
  /** Characters of one text or attribute value. */
  maxTextLength: 4096,
  maxAuthResults: 8,
} as const;

/** Why a mail, or a part of it, gave no report. */
export type ReportRefusal = 'too_large' | 'dtd' | 'invalid' | 'not_a_report';

/** One part of a mail, as mailparser gives attachments. */
export interface MailPart {
  filename?: string;
  contentType: string;
  content: Buffer;
}

/** The reports found and, for every part that gave none, why. */
export interface ReportsOfMail {
  reports: AggregateReport[];
  refusals: ReportRefusal[];
}

/** Parses a raw mail and reads the reports of its parts (the caller checks the mail's size first). */
export async function reportsOfRawMail(raw: Buffer): Promise<ReportsOfMail> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const parts: MailPart[] = mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content }));
  // A receiver that sends the XML as the body itself (text/xml, or no type) gives no attachment.
  if (parts.length === 0 && mail.text && mail.text.trimStart().startsWith('<')) parts.push({ contentType: 'text/plain', content: Buffer.from(mail.text) });
  return reportsOfParts(parts);
}

/** The reports of a mail's parts. */
export function reportsOfParts(parts: readonly MailPart[]): ReportsOfMail {
  const reports: AggregateReport[] = [];
  const refusals: ReportRefusal[] = [];
  if (parts.length > DMARC_LIMITS.maxParts) return { reports, refusals: ['too_large'] };
  let documents = 0;
  for (const part of parts) {
    try {
      for (const xml of unpackReports(part.content, DMARC_LIMITS)) {
        if (++documents > DMARC_LIMITS.maxDocuments) throw new UnpackRefused('too_large', 'Too many documents');
        reports.push(readAggregateReport(readXml(xml.toString('utf8'), DMARC_LIMITS), DMARC_LIMITS));
      }
    } catch (error) {
      if (error instanceof UnpackRefused || error instanceof XmlRefused || error instanceof ReportRefused) refusals.push(error.reason);
      else throw error;
    }
  }
  return { reports, refusals };
}
