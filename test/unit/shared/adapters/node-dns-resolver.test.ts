import { NodeDnsResolver } from '../../../../shared/platform/adapters/node-dns-resolver';
import { TestDnsServer } from '../../../support/dns-server';

describe('NodeDnsResolver (against a loopback DNS server)', () => {
  let dns: TestDnsServer;
  let resolver: NodeDnsResolver;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    resolver = new NodeDnsResolver([dns.address]);
  });
  afterAll(() => dns.close());
  beforeEach(() => dns.clear());

  describe('TXT', () => {
    test('returns each record, its character-strings joined', async () => {
      dns.set('example.com', 'TXT', [['v=spf1 include:amazonses.com', ' ~all'], 'google-site-verification=abc']);
      await expect(resolver.resolveTxt('example.com')).resolves.toEqual(['v=spf1 include:amazonses.com ~all', 'google-site-verification=abc']);
    });

    test('returns [] for a name that does not exist (NXDOMAIN)', async () => {
      await expect(resolver.resolveTxt('missing.example.com')).resolves.toEqual([]);
    });

    test('returns [] for a name with records of other types only (no data)', async () => {
      dns.set('example.com', 'MX', [{ exchange: 'mx.example.net', priority: 10 }]);
      await expect(resolver.resolveTxt('example.com')).resolves.toEqual([]);
    });

    test('throws when the server fails (SERVFAIL), rather than reporting no record', async () => {
      dns.set('broken.example.com', 'TXT', 'SERVFAIL');
      await expect(resolver.resolveTxt('broken.example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    });
  });

  describe('MX', () => {
    test('returns exchanges with their priorities', async () => {
      dns.set('reply.example.com', 'MX', [
        { exchange: 'inbound-smtp.us-east-1.amazonaws.com', priority: 10 },
        { exchange: 'backup.example.net', priority: 20 },
      ]);
      const found = await resolver.resolveMx('reply.example.com');
      expect(found).toHaveLength(2);
      expect(found).toEqual(
        expect.arrayContaining([
          { exchange: 'inbound-smtp.us-east-1.amazonaws.com', priority: 10 },
          { exchange: 'backup.example.net', priority: 20 },
        ]),
      );
    });

    test('returns [] for NXDOMAIN and for no data', async () => {
      dns.set('example.com', 'TXT', ['hello']);
      await expect(resolver.resolveMx('missing.example.com')).resolves.toEqual([]);
      await expect(resolver.resolveMx('example.com')).resolves.toEqual([]);
    });
  });

  describe('CNAME', () => {
    test('returns the target', async () => {
      dns.set('track.example.com', 'CNAME', ['track.mailroom.local']);
      await expect(resolver.resolveCname('track.example.com')).resolves.toEqual(['track.mailroom.local']);
    });

    test('returns [] for NXDOMAIN and for no data', async () => {
      dns.set('example.com', 'TXT', ['hello']);
      await expect(resolver.resolveCname('missing.example.com')).resolves.toEqual([]);
      await expect(resolver.resolveCname('example.com')).resolves.toEqual([]);
    });
  });
});
