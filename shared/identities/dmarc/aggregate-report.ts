import { isIP } from 'node:net';
import { child, childrenNamed, textOf, type XmlElement } from './xml-reader';

/**
 * A DMARC aggregate report read from its XML root: RFC 7489 Appendix C, and its successor's
 * (RFC 9990, namespace `urn:ietf:params:xml:ns:dmarc-2.0`, which drops `pct` and adds `np`,
 * `testing`, `discovery_method`, `generator`). Receivers vary, so reading is lenient where the
 * meaning is clear (an absent `<version>`, upper-case `Pass`, white space around values, an absent
 * `pct`) and strict where it is not (no report id, no dates, no domain, a source that is not an IP).
 */

/** The namespace of the RFC 9990 schema. */
export const DMARC_2_NAMESPACE = 'urn:ietf:params:xml:ns:dmarc-2.0';

/** Bounds of what one report may hold. */
export interface ReportLimits {
  /** `<record>` elements in one report. */
  maxRecords: number;
  /** DKIM or SPF results kept per record (the rest are ignored). */
  maxAuthResults: number;
}

/** One authentication result of a record (`auth_results/dkim` or `auth_results/spf`). */
export interface AuthResult {
  domain: string;
  /** Lowercase: pass, fail, none, neutral, temperror, permerror, policy, softfail... */
  result: string;
  /** DKIM only. */
  selector?: string;
}

/** One row of a report: messages from one source IP with one set of results. */
export interface ReportRecord {
  sourceIp: string;
  count: number;
  /** What the receiver did: none, quarantine or reject (lowercase). */
  disposition: string;
  /** The policy-evaluated (aligned) DKIM result: pass or fail. */
  dkim: string;
  /** The policy-evaluated (aligned) SPF result: pass or fail. */
  spf: string;
  headerFrom?: string;
  envelopeFrom?: string;
  dkimResults: AuthResult[];
  spfResults: AuthResult[];
}

/** The policy the receiver found published (`policy_published`). */
export interface PublishedPolicy {
  domain: string;
  p?: string;
  sp?: string;
  np?: string;
  adkim?: string;
  aspf?: string;
  pct?: number;
  testing?: string;
}

/** A whole aggregate report. */
export interface AggregateReport {
  schema: 'rfc7489' | 'dmarc-2.0';
  orgName: string;
  email?: string;
  reportId: string;
  /** Unix seconds. */
  begin: number;
  end: number;
  policy: PublishedPolicy;
  records: ReportRecord[];
}

/** Why a document is not a report we can read. */
export class ReportRefused extends Error {
  constructor(
    readonly reason: 'invalid' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/** Reads the report of a parsed document (its root must be `<feedback>`). */
export function readAggregateReport(root: XmlElement, limits: ReportLimits): AggregateReport {
  const invalid = (why: string): never => {
    throw new ReportRefused('invalid', why);
  };
  if (root.name !== 'feedback') invalid(`The root element is <${root.name}>, not <feedback>`);
  const metadata = child(root, 'report_metadata') ?? invalid('No report_metadata');
  const policyElement = child(root, 'policy_published') ?? invalid('No policy_published');
  const range = child(metadata, 'date_range');
  const orgName = textOf(metadata, 'org_name') ?? invalid('No org_name');
  const reportId = textOf(metadata, 'report_id') ?? invalid('No report_id');
  const begin = wholeNumber(textOf(range, 'begin')) ?? invalid('No date_range begin');
  const end = wholeNumber(textOf(range, 'end')) ?? invalid('No date_range end');
  if (end < begin) invalid('date_range ends before it begins');
  const domain = domainName(textOf(policyElement, 'domain')) ?? invalid('No policy_published domain');

  const recordElements = childrenNamed(root, 'record');
  if (recordElements.length > limits.maxRecords) throw new ReportRefused('too_large', `More than ${limits.maxRecords} records`);
  const namespace = root.attributes.xmlns ?? '';
  const policyText = (name: string) => lower(textOf(policyElement, name));
  const pct = wholeNumber(textOf(policyElement, 'pct'));
  const policy: PublishedPolicy = {
    domain,
    ...defined('p', policyText('p')),
    ...defined('sp', policyText('sp')),
    ...defined('np', policyText('np')),
    ...defined('adkim', policyText('adkim')),
    ...defined('aspf', policyText('aspf')),
    ...defined('pct', pct),
    ...defined('testing', policyText('testing')),
  };
  const email = textOf(metadata, 'email');
  return {
    schema: namespace === DMARC_2_NAMESPACE || child(policyElement, 'testing') || child(policyElement, 'discovery_method') ? 'dmarc-2.0' : 'rfc7489',
    orgName,
    ...(email ? { email } : {}),
    reportId,
    begin,
    end,
    policy,
    records: recordElements.map((r, i) => readRecord(r, i, limits)),
  };
}

function readRecord(record: XmlElement, index: number, limits: ReportLimits): ReportRecord {
  const invalid = (why: string): never => {
    throw new ReportRefused('invalid', `Record ${index + 1}: ${why}`);
  };
  const row = child(record, 'row') ?? invalid('no row');
  const sourceIp = textOf(row, 'source_ip') ?? invalid('no source_ip');
  if (!isIP(sourceIp)) invalid(`source_ip ${sourceIp.slice(0, 64)} is not an IP address`);
  const count = wholeNumber(textOf(row, 'count')) ?? invalid('no count');
  const evaluated = child(row, 'policy_evaluated');
  const identifiers = child(record, 'identifiers');
  const auth = child(record, 'auth_results');
  const results = (name: 'dkim' | 'spf'): AuthResult[] =>
    childrenNamed(auth, name)
      .slice(0, limits.maxAuthResults)
      .map((r) => ({ domain: domainName(textOf(r, 'domain')) ?? '', result: lower(textOf(r, 'result')) ?? 'none', ...defined('selector', textOf(r, 'selector')) }));
  const headerFrom = domainName(textOf(identifiers, 'header_from'));
  const envelopeFrom = domainName(textOf(identifiers, 'envelope_from'));
  return {
    sourceIp: sourceIp.toLowerCase(),
    count,
    disposition: lower(textOf(evaluated, 'disposition')) ?? 'none',
    dkim: lower(textOf(evaluated, 'dkim')) ?? 'fail',
    spf: lower(textOf(evaluated, 'spf')) ?? 'fail',
    ...defined('headerFrom', headerFrom),
    ...defined('envelopeFrom', envelopeFrom),
    dkimResults: results('dkim'),
    spfResults: results('spf'),
  };
}

function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function lower(text: string | undefined): string | undefined {
  return text === undefined ? undefined : text.toLowerCase();
}

/** A domain as reports write it: lowercase, without a trailing dot; undefined when empty. */
function domainName(text: string | undefined): string | undefined {
  const name = text?.toLowerCase().replace(/\.$/, '');
  return name ? name : undefined;
}

function defined<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: V };
}
