import { knownProvider, providerOfMx } from '../../../../shared/mail-pipeline/delivery/mailbox-provider';
import { DEFAULT_PROVIDER_RATES, parseProviderRates } from '../../../../shared/mail-pipeline/delivery/provider-rates';
import { forgetProviders, MAX_LOOKUPS_PER_CALL, providersOf } from '../../../../shared/mail-pipeline/delivery/mx-cache';
import { isDeferral, minuteOf } from '../../../../shared/mail-pipeline/delivery/provider-deferrals';
import type { DeliveryEvent } from '../../../../shared/mail-pipeline/delivery/ses-event';
import { isBurst, levelAt, MAX_BACKOFF_LEVEL, pacedRate, RECOVERY_MINUTES } from '../../../../shared/marketing/campaigns/provider-pacing';

describe('the provider of a recipient domain', () => {
  test.each([
    ['gmail.com', 'google'],
    ['GoogleMail.com', 'google'],
    ['outlook.com', 'microsoft'],
    ['hotmail.com', 'microsoft'],
    ['live.com', 'microsoft'],
    ['msn.com', 'microsoft'],
    ['yahoo.com', 'yahoo'],
    ['aol.com', 'yahoo'],
    ['ymail.com', 'yahoo'],
    ['icloud.com', 'apple'],
    ['me.com', 'apple'],
    ['mac.com', 'apple'],
  ])('%s is known without a lookup: %s', (domain, provider) => {
    expect(knownProvider(domain)).toBe(provider);
  });

  test('another domain is not known without its MX', () => {
    expect(knownProvider('example.com')).toBeUndefined();
  });

  test.each([
    ['aspmx.l.google.com.', 'google'],
    ['alt1.aspmx.l.GOOGLE.com', 'google'],
    ['example-com.olc.protection.outlook.com', 'microsoft'],
    ['example-com.mail.protection.outlook.com', 'microsoft-365'],
    ['example-com.r-v1.mx.microsoft', 'microsoft-365'],
    ['mta5.am0.yahoodns.net', 'yahoo'],
    ['mx01.mail.icloud.com', 'apple'],
    ['mx.example.net', 'other'],
  ])('an MX host %s is %s', (exchange, provider) => {
    expect(providerOfMx([{ exchange, priority: 10 }])).toBe(provider);
  });

  test('the most preferred host decides; no MX at all is other', () => {
    expect(providerOfMx([{ exchange: 'backup.example.net', priority: 20 }, { exchange: 'aspmx.l.google.com', priority: 1 }])).toBe('google');
    expect(providerOfMx([{ exchange: 'mx.example.net', priority: 1 }, { exchange: 'aspmx.l.google.com', priority: 5 }])).toBe('google');
    expect(providerOfMx([])).toBe('other');
  });
});

describe('PROVIDER_RATES, the operator setting', () => {
  test('unset or empty: the documented defaults', () => {
    expect(parseProviderRates(undefined)).toEqual(DEFAULT_PROVIDER_RATES);
    expect(parseProviderRates('  ')).toEqual(DEFAULT_PROVIDER_RATES);
    expect(DEFAULT_PROVIDER_RATES).toEqual({ google: 6000, microsoft: 6000, 'microsoft-365': 6000, yahoo: 3000, apple: 1200, other: null });
  });

  test('a JSON object overrides the providers it names; null lifts a limit', () => {
    expect(parseProviderRates('{"yahoo":600,"google":null,"other":10000}')).toEqual({ ...DEFAULT_PROVIDER_RATES, yahoo: 600, google: null, other: 10000 });
  });

  test.each([
    ['not json', /JSON object/],
    ['[1,2]', /JSON object/],
    ['{"hotmail":100}', /unknown provider "hotmail"/],
    ['{"google":0}', /whole number of mails a minute, 1 or more, or null/],
    ['{"google":2.5}', /whole number/],
    ['{"google":"100"}', /whole number/],
  ])('%s is refused: %s', (text, message) => {
    expect(() => parseProviderRates(text)).toThrow(message);
  });
});

describe('backoff after deferral bursts', () => {
  const M = 1_893_553_440;

  test('a burst is at least 5 deferrals in a minute and at least 5% of the provider\'s rate', () => {
    expect(isBurst(4, 60)).toBe(false);
    expect(isBurst(5, 60)).toBe(true);
    expect(isBurst(299, 6000)).toBe(false);
    expect(isBurst(300, 6000)).toBe(true);
  });

  test('each halving halves the rate, never below one a minute', () => {
    expect(pacedRate(6000, 0)).toBe(6000);
    expect(pacedRate(6000, 1)).toBe(3000);
    expect(pacedRate(6000, MAX_BACKOFF_LEVEL)).toBe(375);
    expect(pacedRate(3, 4)).toBe(1);
  });

  test('the pace recovers one level per clean period after the burst, stepwise', () => {
    const pace = { level: 2, bad_minute: M };
    expect(levelAt(undefined, M)).toBe(0);
    expect(levelAt(pace, M + 60)).toBe(2);
    expect(levelAt(pace, M + 60 * RECOVERY_MINUTES)).toBe(2);
    expect(levelAt(pace, M + 60 + 60 * RECOVERY_MINUTES)).toBe(1);
    expect(levelAt(pace, M + 60 + 2 * 60 * RECOVERY_MINUTES)).toBe(0);
    expect(levelAt(pace, M + 60 * 1000)).toBe(0);
  });
});

describe('deferrals', () => {
  const event = (over: Partial<DeliveryEvent>) => ({ type: 'delivery', recipients: [], timestamp: '', dedupeKey: 'k', ...over }) as DeliveryEvent;

  test('a DeliveryDelay and a transient bounce are deferrals; a permanent bounce and a delivery are not', () => {
    expect(isDeferral(event({ type: 'delivery_delay' }))).toBe(true);
    expect(isDeferral(event({ type: 'bounce', bounce: { bounceType: 'Transient' } as never }))).toBe(true);
    expect(isDeferral(event({ type: 'bounce', bounce: { bounceType: 'Permanent' } as never }))).toBe(false);
    expect(isDeferral(event({ type: 'delivery' }))).toBe(false);
  });

  test('they are counted by the minute', () => {
    expect(minuteOf(new Date('2030-01-02T03:04:59.999Z'))).toBe(Date.parse('2030-01-02T03:04:00Z') / 1000);
  });
});

describe('the MX cache', () => {
  /** A table that stores nothing and records what it was asked (BatchGet misses every key). */
  const table = () => {
    const asked: string[] = [];
    const send = jest.fn(async (command: { constructor: { name: string }; input: Record<string, any> }) => {
      asked.push(command.constructor.name);
      return command.constructor.name === 'BatchGetCommand' ? { Responses: {} } : {};
    });
    return { asked, db: { tableName: 't', doc: { send } } as never };
  };
  const clock = { now: () => new Date('2030-01-02T03:04:05Z') };

  beforeEach(() => forgetProviders());

  test('known domains cost no read and no lookup; a new domain is looked up once, then answered from memory', async () => {
    const { asked, db } = table();
    const resolveMx = jest.fn(async (name: string) => (name === 'acme.example' ? [{ exchange: 'acme-example.mail.protection.outlook.com', priority: 0 }] : []));
    const deps = { db, clock, dns: { resolveMx, resolveTxt: jest.fn(), resolveCname: jest.fn() } };
    expect(Object.fromEntries(await providersOf(deps, ['gmail.com', 'yahoo.com']))).toEqual({ 'gmail.com': 'google', 'yahoo.com': 'yahoo' });
    expect(asked).toEqual([]);
    expect(Object.fromEntries(await providersOf(deps, ['acme.example', 'nomx.example', 'gmail.com']))).toEqual({ 'acme.example': 'microsoft-365', 'nomx.example': 'other', 'gmail.com': 'google' });
    expect(asked).toEqual(['BatchGetCommand', 'BatchWriteCommand']);
    expect(resolveMx).toHaveBeenCalledTimes(2);
    await providersOf(deps, ['acme.example', 'nomx.example']);
    expect(resolveMx).toHaveBeenCalledTimes(2);
    expect(asked).toHaveLength(2);
  });

  test('a failed lookup counts as other and is not cached; lookups per call are bounded', async () => {
    const { db } = table();
    const resolveMx = jest.fn(async (name: string) => {
      if (name === 'broken.example') throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
      return [{ exchange: 'aspmx.l.google.com', priority: 1 }];
    });
    const deps = { db, clock, dns: { resolveMx, resolveTxt: jest.fn(), resolveCname: jest.fn() } };
    expect((await providersOf(deps, ['broken.example'])).get('broken.example')).toBe('other');
    await providersOf(deps, ['broken.example']);
    expect(resolveMx).toHaveBeenCalledTimes(2);
    resolveMx.mockClear();
    const many = Array.from({ length: MAX_LOOKUPS_PER_CALL + 50 }, (_, i) => `d${i}.example`);
    const found = await providersOf(deps, many);
    expect(resolveMx).toHaveBeenCalledTimes(MAX_LOOKUPS_PER_CALL);
    expect([...found.values()].filter((p) => p === 'google')).toHaveLength(MAX_LOOKUPS_PER_CALL);
    expect(found.size).toBe(many.length);
  });
});
