import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import MailComposer from 'nodemailer/lib/mail-composer';
import { meteredDynamo, type Meter } from '../../bench/measure';
import { inboundStore } from '../../composition/inbound';
import { services } from '../../composition/services';
import { ingestDmarcMail } from '../../shared/identities/dmarc/dmarc-intake';
import { readIntake } from '../../shared/identities/dmarc/dmarc-repository';
import { MAX_ROWS_PER_REPORT, reportHash } from '../../shared/identities/dmarc/dmarc-rows';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { createDocumentClient } from '../../shared/platform/store/client';
import { dmarcReportKey } from '../../shared/platform/store/keys';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * DMARC aggregate reports end to end in the local cloud: a report mailed to a registered domain's
 * `rua` address (`d-<identity_id>@<reports domain>`) and injected through POST /_local/inbound, as
 * the SES receipt rule would store it, reaches the inbound function, which stores it; then
 * GET /domains/{domain}/dmarc, its partner twin and /domains/health read it. Hostile and
 * misdirected reports are refused and counted.
 */
jest.setTimeout(60_000);

let cloud: TestCloud;
let liveKey: string;
let projectId: string;
let reportsDomain: string;
const DOMAIN = 'dmarc.example.org';
const IDENTITY = randomUUID();
const OTHER_DOMAIN = 'other.example.org';
const OTHER_IDENTITY = randomUUID();
const FIXTURES = path.join(__dirname, '../fixtures/dmarc');
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  const { db, clock, config } = services();
  reportsDomain = config.DMARC_REPORTS_DOMAIN ?? config.INBOUND_DOMAIN;
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'DMARC' });
  liveKey = created.liveKey;
  projectId = created.project.id;
  const now = new Date().toISOString();
  for (const [domain, identity] of [[DOMAIN, IDENTITY], [OTHER_DOMAIN, OTHER_IDENTITY]]) {
    await putDomain(db, { project_id: projectId, domain: domain!, identity_id: identity!, verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
  }
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

/** A report as Google sends it: yesterday, an SES source that passes and a spoofer that fails. */
function reportXml(input: { domain?: string; reportId?: string; records?: string } = {}): string {
  const begin = Math.floor(Date.parse(`${today()}T00:00:00Z`) / 1000) - 86_400;
  const sesRecord = `<record><row><source_ip>54.240.8.1</source_ip><count>16</count><policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>pass</spf></policy_evaluated></row>
    <identifiers><header_from>${input.domain ?? DOMAIN}</header_from></identifiers>
    <auth_results><dkim><domain>${input.domain ?? DOMAIN}</domain><selector>abc</selector><result>pass</result></dkim><dkim><domain>amazonses.com</domain><selector>x</selector><result>pass</result></dkim>
    <spf><domain>send.${input.domain ?? DOMAIN}</domain><result>pass</result></spf></auth_results></record>`;
  const spoofRecord = `<record><row><source_ip>203.0.113.4</source_ip><count>4</count><policy_evaluated><disposition>none</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated></row>
    <identifiers><header_from>${input.domain ?? DOMAIN}</header_from></identifiers><auth_results><spf><domain>spoofer.example</domain><result>softfail</result></spf></auth_results></record>`;
  return `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <report_metadata><org_name>google.com</org_name><email>noreply-dmarc-support@google.com</email><report_id>${input.reportId ?? randomUUID()}</report_id>
    <date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range></report_metadata>
  <policy_published><domain>${input.domain ?? DOMAIN}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct><np>none</np></policy_published>
  ${input.records ?? sesRecord + spoofRecord}
</feedback>`;
}

function reportMail(xml: string, to = `d-${IDENTITY}@${reportsDomain}`): Promise<Buffer> {
  return new MailComposer({
    from: 'noreply-dmarc-support@google.com',
    to,
    subject: `Report domain: ${DOMAIN} Submitter: google.com Report-ID: 1`,
    text: 'This is an aggregate report from google.com.',
    attachments: [{ filename: `google.com!${DOMAIN}!1!2.xml.gz`, content: gzipSync(Buffer.from(xml)), contentType: 'application/octet-stream' }],
  })
    .compile()
    .build();
}

/** The raw message with its To header replaced (the .eml fixtures are addressed to a placeholder). */
const addressed = (raw: Buffer, identity = IDENTITY) => Buffer.from(raw.toString('latin1').replace(/^To: .*$/m, `To: d-${identity}@${reportsDomain}`), 'latin1');

type InboundAnswer = { results: { outcome: string; dmarc?: { outcome: string; reports: { outcome: string; rows?: number }[] } }[] };
async function inject(raw: Buffer): Promise<InboundAnswer['results'][number]> {
  const res = await fetch(`${cloud.baseUrl}/_local/inbound`, { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: raw });
  expect(res.status).toBe(202);
  const body = (await res.json()) as { key: string; result: InboundAnswer };
  return { ...body.result.results[0]!, key: body.key } as InboundAnswer['results'][number] & { key: string };
}

describe('a DMARC report mailed to a registered domain', () => {
  test('is stored once, and GET /domains/{domain}/dmarc shows its pass rate, its failing source and the advice', async () => {
    const raw = await reportMail(reportXml({ reportId: 'first-report' }));
    const first = await inject(raw);
    expect(first.outcome).toBe('dmarc_report');
    expect(first.dmarc).toMatchObject({ outcome: 'stored', reports: [{ outcome: 'stored', rows: 2 }] });
    // The same report again (a second mail, or S3 redelivering the event) is dropped.
    expect((await inject(raw)).dmarc?.outcome).toBe('duplicate');
    const again = await fetch(`${cloud.baseUrl}/_local/inbound?key=${encodeURIComponent((first as unknown as { key: string }).key)}`, { method: 'POST' });
    expect(((await again.json()) as { result: InboundAnswer }).result.results[0]!.dmarc?.outcome).toBe('duplicate');

    const res = await cloud.api('GET', `/domains/${DOMAIN}/dmarc`, { key: liveKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      domain: DOMAIN,
      window: { days: 30, to: today() },
      totals: { messages: 20, dmarc_pass: 16, pass_rate: 80, reports: 1 },
      // The local DNS has no reverse zone: no name is known.
      failing_sources: [{ source_ip: '203.0.113.4', messages: 4, failed: 4, ses: false, reporters: ['google.com'], reverse_dns: null }],
      advice: { stage: 'fix_failures', policy: 'none', aligned_days: 0 },
    });
    expect(res.body.days).toEqual([{ day: expect.any(String), messages: 20, dmarc_pass: 16, pass_rate: 80, dkim_aligned: 16, spf_aligned: 16, quarantined: 0, rejected: 0 }]);
  });

  test('/domains/health says how much of the domain\'s mail fails DMARC, from which source, and that it is not SES', async () => {
    const res = await cloud.api('GET', '/domains/health', { key: liveKey });
    const entry = (res.body.data as { domain: string; issues: string[] }[]).find((d) => d.domain === DOMAIN);
    expect(entry?.issues).toContain(`20% of mail claiming ${DOMAIN} fails DMARC over the last 30 days, from 203.0.113.4, which is not SES. See GET /domains/${DOMAIN}/dmarc.`);
  });

  test('the partner twin answers the same', async () => {
    const own = await cloud.api('GET', `/domains/${DOMAIN}/dmarc?days=7`, { key: liveKey });
    const partner = await cloud.api('GET', `/v1/partner/projects/${projectId}/domains/${DOMAIN}/dmarc?days=7`, { key: cloud.seed.partner_key });
    expect(partner.status).toBe(200);
    expect(partner.body).toEqual(own.body);
    expect((await cloud.api('GET', `/v1/partner/projects/${projectId}/domains/${DOMAIN}/dmarc?days=0`, { key: cloud.seed.partner_key })).status).toBe(400);
  });

  test('refuses a window outside 1 to 90 days and a domain the project does not have', async () => {
    const tooLong = await cloud.api('GET', `/domains/${DOMAIN}/dmarc?days=91`, { key: liveKey });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('days must be a whole number from 1 to 90');
    expect((await cloud.api('GET', '/domains/unknown.example.org/dmarc', { key: liveKey })).status).toBe(404);
  });

  test('a crash after the rows and before the marker: the redelivered mail writes the same rows, counting nothing twice', async () => {
    const { db } = services();
    const raw = await reportMail(reportXml({ reportId: 'crash-report' }));
    const before = (await cloud.api('GET', `/domains/${DOMAIN}/dmarc`, { key: liveKey })).body.totals as { messages: number };
    const first = (await inject(raw)) as unknown as { key: string; dmarc: { outcome: string } };
    expect(first.dmarc.outcome).toBe('stored');
    // As if the function had died between its two writes: the marker is gone, the rows are there.
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: dmarcReportKey(projectId, DOMAIN, reportHash({ orgName: 'google.com', reportId: 'crash-report' })) }));
    const again = await fetch(`${cloud.baseUrl}/_local/inbound?key=${encodeURIComponent(first.key)}`, { method: 'POST' });
    expect(((await again.json()) as { result: InboundAnswer }).result.results[0]!.dmarc?.outcome).toBe('stored');
    const after = (await cloud.api('GET', `/domains/${DOMAIN}/dmarc`, { key: liveKey })).body.totals as { messages: number; reports: number };
    expect(after.messages).toBe(before.messages + 20);
  });

  test('a report of a subdomain is stored under its registered parent', async () => {
    const sub = await inject(await reportMail(reportXml({ domain: `news.${DOMAIN}` })));
    expect(sub.dmarc?.outcome).toBe('stored');
  });

  test('costs one write unit per source IP, one for its marker and one for the day\'s counters', async () => {
    const meter: Meter = { write: 0, read: 0, requests: 0 };
    const { clock } = services();
    const db = { tableName: services().db.tableName, doc: createDocumentClient(meteredDynamo(meter)) };
    const records = Array.from({ length: 10 }, (_, i) => `<record><row><source_ip>198.51.100.${i + 1}</source_ip><count>3</count><policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>fail</spf></policy_evaluated></row><identifiers><header_from>${DOMAIN}</header_from></identifiers><auth_results><dkim><domain>${DOMAIN}</domain><result>pass</result></dkim></auth_results></record>`).join('');
    const result = await ingestDmarcMail({ db, clock }, { identityId: IDENTITY, raw: await reportMail(reportXml({ records })), objectKey: 'metered' });
    expect(result.reports).toEqual([expect.objectContaining({ outcome: 'stored', rows: 10 })]);
    // 10 rows + the report's marker + the intake counter.
    expect(meter.write).toBe(12);
    expect(MAX_ROWS_PER_REPORT).toBe(200);
  });
});

describe('DMARC reports that are hostile or not ours', () => {
  const before: Record<string, number> = {};
  beforeAll(async () => Object.assign(before, await readIntake(services().db, today())));
  const counted = async () => {
    const now = await readIntake(services().db, today());
    return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([, v]) => Number(v) > 0));
  };

  test('are refused and counted: a zip bomb, the billion laughs, an unknown identity, another identity\'s domain, a 50 MB mail', async () => {
    const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, 'mail', `${name}.eml`));
    const outcomes: string[] = [];
    outcomes.push((await inject(addressed(fixture('zip-bomb')))).dmarc!.outcome);
    outcomes.push((await inject(addressed(fixture('billion-laughs')))).dmarc!.outcome);
    // An identity nobody registered, about a domain registered under another one.
    outcomes.push((await inject(await reportMail(reportXml(), `d-${randomUUID()}@${reportsDomain}`))).dmarc!.outcome);
    // Sent to this domain's address, about a domain registered under another identity, then about one nobody registered.
    outcomes.push((await inject(await reportMail(reportXml({ domain: OTHER_DOMAIN })))).dmarc!.outcome);
    outcomes.push((await inject(await reportMail(reportXml({ domain: 'stranger.example.net' })))).dmarc!.outcome);
    // A d- address whose id is no identity id at all.
    outcomes.push((await inject(await reportMail(reportXml(), `d-not-an-id@${reportsDomain}`))).dmarc!.outcome);
    // A report of 2020: older than what is kept.
    outcomes.push((await inject(await reportMail(reportXml().replace(/<begin>\d+<\/begin><end>\d+<\/end>/, '<begin>1577836800</begin><end>1577923199</end>')))).dmarc!.outcome);
    expect(outcomes).toEqual(['too_large', 'dtd', 'domain_mismatch', 'domain_mismatch', 'unknown_identity', 'unknown_identity', 'out_of_range']);

    // 50 MB is past the local API's body limit, so it is stored as SES would store it, then its event delivered.
    const key = `inbound/${randomUUID()}.eml`;
    const big = Buffer.concat([await reportMail(reportXml()), Buffer.alloc(50 * 1024 * 1024, 0x41)]);
    await inboundStore().store.put(key, big);
    const started = Date.now();
    const res = await fetch(`${cloud.baseUrl}/_local/inbound?key=${encodeURIComponent(key)}`, { method: 'POST' });
    expect(((await res.json()) as { result: InboundAnswer }).result.results[0]!.dmarc?.outcome).toBe('too_large');
    expect(Date.now() - started).toBeLessThan(20_000);

    expect(await counted()).toEqual({ too_large: 2, dtd: 1, unknown_identity: 2, domain_mismatch: 2, out_of_range: 1 });
    // Nothing of them reached the domain's reports.
    const other = await cloud.api('GET', `/domains/${OTHER_DOMAIN}/dmarc`, { key: liveKey });
    expect(other.body.totals).toMatchObject({ messages: 0, reports: 0 });
    expect(other.body.advice).toMatchObject({ stage: 'no_reports' });
  });
});
