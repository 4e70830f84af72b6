import { refreshConfig } from '../../../../shared/platform/core/config';
import type { Db } from '../../../../shared/platform/store/client';
import type { Subdomain } from '../../../../shared/identities/domains/subdomains';
import { serviceTrackingBaseUrl, trackedHtml, trackingBaseUrl } from '../../../../shared/mail-pipeline/tracking/tracking-service';
import { verifyOpenToken } from '../../../../shared/mail-pipeline/tracking/tracking-tokens';

const SECRET = 'tracking-secret-1';
const PROJECT = 'p-1';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

let tables = 0;
const clock = { now: () => new Date() };

/** A table that answers every query with `items` (a table of its own: the tracking domains are cached per table and project). */
function fakeDb(items: Partial<Subdomain>[]): Db {
  return { tableName: `t-${tables++}`, doc: { send: async () => ({ Items: items.map((i) => ({ pk: 'x', sk: 'y', ...i })) }) } as unknown as Db['doc'] };
}

/** A tracking subdomain; `https` is its TLS state at the edge (active unless said otherwise). */
const tracking = (parent: string, status: 'pending' | 'verified', https: 'provisioning' | 'active' | 'failed' = 'active'): Partial<Subdomain> => ({
  project_id: PROJECT,
  kind: 'tracking',
  parent_domain: parent,
  domain: `track.${parent}`,
  status,
  tls: { status: https, requested_at: '2026-01-01T00:00:00.000Z', checked_at: '2026-01-01T00:00:00.000Z', next_check_at: null },
});

describe('the service tracking base URL (TRACKING_BASE_URL)', () => {
  test('TRACKING_BASE_URL, without its trailing slash', () => {
    expect(serviceTrackingBaseUrl({ TRACKING_BASE_URL: 'http://localhost:3000/', TRACKING_HOST: 'track.svc.example' })).toBe('http://localhost:3000');
  });
  test('TRACKING_HOST alone gives no URL: it is a CNAME target that no certificate covers', () => {
    expect(serviceTrackingBaseUrl({ TRACKING_HOST: 'track.svc.example' })).toBeUndefined();
  });
  test('nothing set: none', () => {
    expect(serviceTrackingBaseUrl({})).toBeUndefined();
    expect(serviceTrackingBaseUrl({ TRACKING_BASE_URL: '  ' })).toBeUndefined();
  });
});

describe('trackingBaseUrl', () => {
  const saved = process.env.TRACKING_BASE_URL;
  beforeEach(() => refreshConfig({ TRACKING_BASE_URL: 'https://api.svc.example' }));
  afterAll(() => refreshConfig({ TRACKING_BASE_URL: saved }));

  test('a verified tracking domain of the sender domain brands the links', async () => {
    expect(await trackingBaseUrl({ db: fakeDb([tracking('example.com', 'verified')]), clock }, PROJECT, 'news@example.com')).toBe('https://track.example.com');
  });
  test('a sender on a subdomain uses the closest verified parent', async () => {
    const db = fakeDb([tracking('example.com', 'verified'), tracking('mail.example.com', 'verified')]);
    expect(await trackingBaseUrl({ db, clock }, PROJECT, 'a@news.mail.example.com')).toBe('https://track.mail.example.com');
  });
  test('a verified tracking domain whose HTTPS is not active (yet, or failed) is not used', async () => {
    for (const https of ['provisioning', 'failed'] as const) {
      const db = fakeDb([tracking('example.com', 'verified', https)]);
      expect(await trackingBaseUrl({ db, clock }, PROJECT, 'news@example.com')).toBe('https://api.svc.example');
    }
  });
  test('a pending tracking domain, or another domain\'s, is not used', async () => {
    const db = fakeDb([tracking('example.com', 'pending'), tracking('other.com', 'verified'), tracking('ample.com', 'verified')]);
    expect(await trackingBaseUrl({ db, clock }, PROJECT, 'a@example.com')).toBe('https://api.svc.example');
  });
});

describe('trackedHtml', () => {
  const saved = process.env.TRACKING_BASE_URL;
  afterEach(() => refreshConfig({ TRACKING_BASE_URL: saved }));
  const activity = { id: ID, project_id: PROJECT, email_type: 'api', sender_email: 'a@example.com' };
  const html = '<p><a href="https://example.com/">x</a></p>';

  test('API sends are tracked', async () => {
    refreshConfig({ TRACKING_BASE_URL: 'https://api.svc.example' });
    const out = await trackedHtml({ db: fakeDb([]), clock }, activity, html, SECRET);
    expect(out).toContain('href="https://api.svc.example/t/c/');
    const token = /\/t\/o\/([A-Za-z0-9_-]+)\.gif/.exec(out)?.[1];
    expect(verifyOpenToken(token, SECRET)).toBe(ID);
  });

  test('transactional sends are not (part 4.1)', async () => {
    refreshConfig({ TRACKING_BASE_URL: 'https://api.svc.example' });
    expect(await trackedHtml({ db: fakeDb([]), clock }, { ...activity, email_type: 'transactional' }, html, SECRET)).toBe(html);
  });

  test('without any base URL the mail goes out as it is', async () => {
    const savedHost = process.env.TRACKING_HOST;
    refreshConfig({ TRACKING_BASE_URL: undefined, TRACKING_HOST: undefined });
    try {
      expect(await trackedHtml({ db: fakeDb([]), clock }, activity, html, SECRET)).toBe(html);
    } finally {
      refreshConfig({ TRACKING_HOST: savedHost });
    }
  });

  test('an empty body stays empty', async () => {
    refreshConfig({ TRACKING_BASE_URL: 'https://api.svc.example' });
    expect(await trackedHtml({ db: fakeDb([]), clock }, activity, '', SECRET)).toBe('');
  });
});
