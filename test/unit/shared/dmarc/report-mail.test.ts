import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { DMARC_LIMITS, reportsOfParts, reportsOfRawMail } from '../../../../shared/identities/dmarc/report-mail';
import { sniff, unpackReports, UnpackRefused } from '../../../../shared/identities/dmarc/unpack';
import { readXml, XmlRefused } from '../../../../shared/identities/dmarc/xml-reader';

const FIXTURES = join(__dirname, '../../../fixtures/dmarc');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
const mail = (name: string) => reportsOfRawMail(fixture(`mail/${name}.eml`));

/** A zip of one entry, written by hand (stored or deflate), with sizes that may lie. */
function zipOf(entries: { name: string; data: Buffer; method?: 0 | 8; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.declaredSize ?? e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.declaredSize ?? e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe('DMARC report mails as receivers send them', () => {
  it('reads Google’s zip beside a text part, with np in a pre-9990 report', async () => {
    const { reports, refusals } = await mail('google-zip');
    expect(refusals).toEqual([]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      schema: 'rfc7489',
      orgName: 'google.com',
      reportId: '3166094538684628578',
      begin: 1709683200,
      end: 1709769599,
      policy: { domain: 'foo-bar.io', p: 'reject', np: 'reject', pct: 100 },
    });
    expect(reports[0]!.records).toEqual([
      {
        sourceIp: '1.2.3.4',
        count: 1,
        disposition: 'none',
        dkim: 'pass',
        spf: 'pass',
        headerFrom: 'foo-bar.io',
        dkimResults: [{ domain: 'foo-bar.io', result: 'pass', selector: 'krs' }],
        spfResults: [{ domain: 'foo-bar.io', result: 'pass' }],
      },
    ]);
  });

  it('reads Microsoft’s application/gzip with xsd and xsi namespaces on the root', async () => {
    const { reports } = await mail('microsoft-gzip');
    expect(reports.map((r) => [r.orgName, r.policy.domain, r.end - r.begin])).toEqual([['Outlook.com', 'random.net', 86400]]);
  });

  it('reads Yahoo’s report without <version> and with trailing tabs', async () => {
    const { reports } = await mail('yahoo-gzip');
    expect(reports[0]).toMatchObject({ orgName: 'Yahoo', reportId: '1709600619.487850', policy: { domain: 'random.org' } });
    expect(reports[0]!.records[0]!.sourceIp).toBe('1.2.3.4');
  });

  it('reads SES’s application/octet-stream whose name is split over RFC 2231 parameters', async () => {
    const { reports } = await mail('ses-octet-stream');
    expect(reports).toHaveLength(1);
    expect(reports[0]!.records.map((r) => [r.sourceIp, r.count])).toEqual([
      ['192.168.1.1', 5],
      ['10.1.1.1', 2],
    ]);
  });

  it('reads Mimecast’s gzip whose trailer gunzip refuses', async () => {
    const { reports, refusals } = await mail('mimecast-odd-gzip');
    expect(refusals).toEqual([]);
    expect(reports[0]!.orgName).toBeTruthy();
  });

  it('reads text/xml with several records, a gzip inside a gzip, and a zip declared application/x-zip-compressed', async () => {
    for (const name of ['text-xml-several-records', 'gzip-in-gzip', 'zip-compressed-declared']) {
      const { reports } = await mail(name);
      expect([name, reports.map((r) => [r.reportId, r.records.length, r.records[0]!.dkimResults.length])]).toEqual([name, [['1.id.0', 2, 2]]]);
    }
  });

  it('reads the RFC 9990 schema: its namespace, np, testing, no pct, upper-case Pass and lang attributes', async () => {
    const { reports } = await mail('dmarc-2-0');
    expect(reports[0]).toMatchObject({ schema: 'dmarc-2.0', policy: { domain: 'example.org', p: 'none', sp: 'quarantine', np: 'reject', testing: 'n' } });
    expect(reports[0]!.policy.pct).toBeUndefined();
    expect(reports[0]!.records[0]).toMatchObject({ dkim: 'pass', envelopeFrom: 'send.example.org', count: 12 });
    expect(reports[0]!.records[1]).toMatchObject({ sourceIp: '203.0.113.4', dkim: 'fail', spf: 'fail', spfResults: [{ domain: 'spoofer.example', result: 'softfail' }] });
  });

  it('reads every anonymised sample of the corpus', () => {
    for (const name of ['cryinc-aol.xml', 'cryinc-gmxnet.xml', 'cryinc-hardfail.xml', 'cryinc-mailru.xml', 'cryinc-webde.xml', 'tierpod-test2.xml', 'tierpod-test.xml.gz', 'tierpod-test.xml.zip']) {
      const { reports, refusals } = reportsOfParts([{ contentType: 'application/octet-stream', content: fixture(name) }]);
      expect([name, refusals, reports.length]).toEqual([name, [], 1]);
      expect(reports[0]!.records.length).toBeGreaterThan(0);
    }
  });

  it('reads every XML document of a zip that holds several, skipping a readme', () => {
    const zip = zipOf([
      { name: 'a.xml', data: fixture('cryinc-google.xml') },
      { name: 'README.txt', data: Buffer.from('not a report'), method: 0 },
      { name: 'b.xml', data: fixture('cryinc-yahoo.xml'), method: 0 },
    ]);
    const { reports } = reportsOfParts([{ contentType: 'application/zip', content: zip }]);
    expect(reports.map((r) => r.orgName)).toEqual(['google.com', 'Yahoo']);
  });
});

describe('DMARC reports that are broken or hostile', () => {
  it('refuses a zip bomb once the inflated bytes pass the cap, without inflating the rest', async () => {
    const started = Date.now();
    const { reports, refusals } = await mail('zip-bomb');
    expect(reports).toEqual([]);
    expect(refusals).toEqual(['too_large']);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a zip entry whose declared size lies, at the cap', () => {
    const data = Buffer.alloc(DMARC_LIMITS.maxInflatedBytes + 1024, 0x20);
    data.write('<feedback>', 0);
    const zip = zipOf([{ name: 'liar.xml', data, declaredSize: 100 }]);
    expect(() => unpackReports(zip, DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'too_large' }));
  });

  it('refuses a gzip bomb and a gzip nested deeper than the cap', () => {
    const bomb = gzipSync(Buffer.alloc(DMARC_LIMITS.maxInflatedBytes + 1, 0x3c));
    expect(() => unpackReports(bomb, DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'too_large' }));
    let nested = Buffer.from('<feedback/>');
    for (let i = 0; i <= DMARC_LIMITS.maxNesting; i++) nested = gzipSync(nested);
    expect(() => unpackReports(nested, DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'too_large' }));
  });

  it('refuses a zip with more entries than the cap', () => {
    const zip = zipOf(Array.from({ length: DMARC_LIMITS.maxZipEntries + 1 }, (_, i) => ({ name: `${i}.xml`, data: Buffer.from('<feedback/>') })));
    expect(() => unpackReports(zip, DMARC_LIMITS)).toThrow(UnpackRefused);
  });

  it('refuses the billion laughs (any DOCTYPE or ENTITY) before parsing', async () => {
    const { reports, refusals } = await mail('billion-laughs');
    expect(reports).toEqual([]);
    expect(refusals).toEqual(['dtd']);
    expect(() => readXml('<feedback><!ENTITY x "y"></feedback>', DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'dtd' }));
  });

  it('refuses entities it does not know, overlong texts, deep nesting and too many records', () => {
    expect(() => readXml('<feedback>&xxe;</feedback>', DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'invalid' }));
    expect(() => readXml(`<feedback>${'a'.repeat(DMARC_LIMITS.maxTextLength + 1)}</feedback>`, DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'too_large' }));
    expect(() => readXml('<a>'.repeat(DMARC_LIMITS.maxDepth + 1), DMARC_LIMITS)).toThrow(XmlRefused);
    const attributes = Array.from({ length: 17 }, (_, i) => `a${i}="x"`).join(' ');
    expect(() => readXml(`<feedback ${attributes}/>`, DMARC_LIMITS)).toThrow(expect.objectContaining({ reason: 'too_large' }));
    const many = fixture('cryinc-google.xml')
      .toString()
      .replace(/<record>[\s\S]*<\/record>/, (r) => r.repeat(DMARC_LIMITS.maxRecords + 1));
    expect(reportsOfParts([{ contentType: 'text/xml', content: Buffer.from(many) }]).refusals).toEqual(['too_large']);
  });

  it('decodes the predefined entities and character references, and CDATA', () => {
    const root = readXml('<feedback a="x&amp;y"><b>&lt;&#65;&#x42;</b><c><![CDATA[<raw>]]></c></feedback>', DMARC_LIMITS);
    expect(root.attributes.a).toBe('x&y');
    expect(root.children.map((c) => c.text)).toEqual(['<AB', '<raw>']);
  });

  it('refuses malformed XML, a report without report_id, a source that is not an IP, and a part that is not a report', () => {
    const google = fixture('cryinc-google.xml').toString();
    const cases = [
      google.replace('</feedback>', ''),
      google.replace(/<report_id>.*<\/report_id>/, ''),
      google.replace('1.2.3.4', 'not-an-ip'),
    ];
    for (const xml of cases) expect(reportsOfParts([{ contentType: 'text/xml', content: Buffer.from(xml) }]).refusals).toEqual(['invalid']);
    expect(reportsOfParts([{ contentType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]).refusals).toEqual(['not_a_report']);
  });

  it('tells a report by its bytes, not its name or type', () => {
    expect(sniff(fixture('tierpod-test.xml.zip'))).toBe('zip');
    expect(sniff(fixture('tierpod-test.xml.gz'))).toBe('gzip');
    expect(sniff(Buffer.from('\ufeff  \r\n<?xml version="1.0"?>'))).toBe('xml');
    expect(sniff(Buffer.from('%PDF'))).toBe('unknown');
  });
});
