import fs from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { CAMPAIGN_IDS_EXPIRY_DAYS, PAYLOAD_EXPIRY_DAYS, PAYLOAD_LIFECYCLE } from '../../lib/storage';
import { MAX_START_AHEAD_DAYS } from '../../shared/marketing/campaigns/campaign-request';
import { campaignIdsObjectKey } from '../../shared/platform/store/keys';
import { logicalId } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about the bucket's lifecycle rules.
let rules: { Id?: string; Prefix?: string; ExpirationInDays?: number; AbortIncompleteMultipartUpload?: unknown; Status: string }[];

beforeAll(() => {
  const stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Lifecycle', { env: { account: '123456789012', region: 'eu-west-1' } });
  rules = Template.fromStack(stack).toJSON().Resources[logicalId(stack.storage.payloadBucket)].Properties.LifecycleConfiguration.Rules;
});

/** Key prefixes (`word/`) of the object keys the code builds as template literals, in shared/. */
function prefixesInCode(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) {
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/`([a-z][a-z0-9-]*\/)\$\{/g)) found.add(m[1]);
      }
    }
  };
  walk(path.join(__dirname, '../../shared'));
  return found;
}

describe('the payload bucket lifecycle', () => {
  it("keeps a campaign's id list (campaigns/<p>/<c>/ids.json) past the latest start a campaign may have", () => {
    expect(campaignIdsObjectKey('p', 'c').startsWith('campaigns/')).toBe(true);
    expect(CAMPAIGN_IDS_EXPIRY_DAYS).toBeGreaterThan(MAX_START_AHEAD_DAYS + 14);
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'campaigns/', ExpirationInDays: CAMPAIGN_IDS_EXPIRY_DAYS, Status: 'Enabled' }));
  });

  it(`expires the transient payloads after ${PAYLOAD_EXPIRY_DAYS} days, each prefix by its own rule`, () => {
    for (const prefix of ['send-payloads/', 'imports/', 'batches/', 'exports/']) {
      expect(rules).toContainEqual(expect.objectContaining({ Prefix: prefix, ExpirationInDays: PAYLOAD_EXPIRY_DAYS, Status: 'Enabled' }));
    }
  });

  it('has no expiration covering the whole bucket (S3 would apply the shorter one to campaigns/ too)', () => {
    for (const rule of rules.filter((r) => r.ExpirationInDays !== undefined)) expect(rule.Prefix).toMatch(/^[a-z-]+\/$/);
    const prefixes = rules.filter((r) => r.Prefix).map((r) => r.Prefix!);
    for (const a of prefixes) for (const b of prefixes) if (a !== b) expect(b.startsWith(a)).toBe(false);
  });

  it('aborts unfinished multipart uploads after a day, bucket-wide', () => {
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }));
  });

  it('has a rule for every key prefix the code writes, so nothing is kept for ever by mistake', () => {
    const code = prefixesInCode();
    expect(code.size).toBeGreaterThanOrEqual(5);
    expect([...code].sort()).toEqual(Object.keys(PAYLOAD_LIFECYCLE).sort());
  });
});
