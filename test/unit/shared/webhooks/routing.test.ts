import type { ServiceEvent } from '../../../../shared/platform/core/events';
import type { Project } from '../../../../shared/platform/projects/project';
import { webhookTargets } from '../../../../shared/platform/projects/webhook-routing';

const base: Project = {
  id: 'p',
  organization_id: 'o',
  name: 'P',
  slug: 'p',
  created_at: '',
  live_key_hash: '',
  test_key_hash: '',
};
const LIVE = 'https://live.example.com/h';
const DEV = 'https://dev.example.com/h';
const IN_LIVE = 'https://in-live.example.com/h';
const IN_DEV = 'https://in-dev.example.com/h';
const ENV = 'https://staging.example.com/h';

const email = (isTest: boolean, environment?: string): ServiceEvent => ({
  event: 'email.delivery',
  timestamp: '',
  project_id: 'p',
  is_test: isTest,
  ...(environment ? { environment } : {}),
  data: {},
});
const domainEvent: ServiceEvent = { event: 'domain.verified', timestamp: '', project_id: 'p', data: {} };
const inbound = (isTest: boolean): ServiceEvent => ({ event: 'email.inbound', timestamp: '', project_id: 'p', is_test: isTest, data: {} });

describe('Routing of outbound events (part 6 rules 1 to 3, part 5)', () => {
  const project = { ...base, webhook_url: LIVE, webhook_url_dev: DEV };

  test('a live send goes to the live slot only', () => {
    expect(webhookTargets(project, email(false))).toEqual([{ url: LIVE, slot: 'live' }]);
  });
  test('a test send goes to the dev slot only, with no fallback to the live URL', () => {
    expect(webhookTargets(project, email(true))).toEqual([{ url: DEV, slot: 'dev' }]);
    expect(webhookTargets({ ...base, webhook_url: LIVE }, email(true))).toEqual([]);
  });
  test('events without a mode go to both slots', () => {
    expect(webhookTargets(project, domainEvent)).toEqual([
      { url: LIVE, slot: 'live' },
      { url: DEV, slot: 'dev' },
    ]);
  });
  test('inbound_webhook_url and inbound_webhook_url_dev replace webhook_url and webhook_url_dev (rule 2)', () => {
    const p = { ...project, inbound_webhook_url: IN_LIVE, inbound_webhook_url_dev: IN_DEV };
    expect(webhookTargets(p, email(false))).toEqual([{ url: IN_LIVE, slot: 'live' }]);
    expect(webhookTargets(p, email(true))).toEqual([{ url: IN_DEV, slot: 'dev' }]);
  });
  test("a send with an environment goes to that environment's URL only (rule 3)", () => {
    const p = { ...project, inbound_webhook_environments: { staging: ENV } };
    expect(webhookTargets(p, email(false, 'staging'))).toEqual([{ url: ENV, slot: 'live' }]);
    expect(webhookTargets(p, email(true, 'staging'))).toEqual([{ url: ENV, slot: 'dev' }]);
    expect(webhookTargets(p, email(false, 'unknown'))).toEqual([]);
  });
  test('the same URL in both slots is posted once', () => {
    expect(webhookTargets({ ...base, webhook_url: LIVE, webhook_url_dev: LIVE }, domainEvent)).toEqual([{ url: LIVE, slot: 'live' }]);
  });
});

describe('email.inbound goes to one URL (rule 4)', () => {
  const all = { ...base, webhook_url: LIVE, webhook_url_dev: DEV, inbound_webhook_url: IN_LIVE, inbound_webhook_url_dev: IN_DEV };
  test.each([
    ['live', false, all, IN_LIVE],
    ['live without inbound_webhook_url', false, { ...all, inbound_webhook_url: null }, LIVE],
    ['live with only dev URLs', false, { ...base, inbound_webhook_url_dev: IN_DEV, webhook_url_dev: DEV }, IN_DEV],
    ['live with only webhook_url_dev', false, { ...base, webhook_url_dev: DEV }, DEV],
    ['test', true, all, IN_DEV],
    ['test without inbound_webhook_url_dev', true, { ...all, inbound_webhook_url_dev: null }, DEV],
    ['test with only live URLs', true, { ...base, inbound_webhook_url: IN_LIVE, webhook_url: LIVE }, IN_LIVE],
    ['test with only webhook_url', true, { ...base, webhook_url: LIVE }, LIVE],
  ])('%s send: the first set URL in its order', (_name, isTest, project, url) => {
    const targets = webhookTargets(project as Project, inbound(isTest as boolean));
    expect(targets).toHaveLength(1);
    expect(targets[0].url).toBe(url);
  });
  test('no URL at all: nowhere', () => {
    expect(webhookTargets(base, inbound(false))).toEqual([]);
  });
});
