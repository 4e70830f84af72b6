import { isAppleProxyAddress, isMachineOpen } from '../../../../shared/mail-pipeline/tracking/machine-open';

const IPHONE_MAIL = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('machine opens (docs/decisions.md, "Machine opens")', () => {
  test('Apple Mail Privacy Protection: the bare `Mozilla/5.0` user agent is a machine, whatever the address', () => {
    expect(isMachineOpen({ userAgent: 'Mozilla/5.0', ipAddress: '104.28.1.1' })).toBe(true);
  });

  test("Apple Mail Privacy Protection: any request from Apple's 17.0.0.0/8 is a machine", () => {
    expect(isMachineOpen({ userAgent: IPHONE_MAIL, ipAddress: '17.58.101.7' })).toBe(true);
    expect(isMachineOpen({ userAgent: IPHONE_MAIL, ipAddress: '::ffff:17.1.2.3' })).toBe(true);
  });

  test('a reader on an iPhone outside the proxy is a person', () => {
    expect(isMachineOpen({ userAgent: IPHONE_MAIL, ipAddress: '203.0.113.9' })).toBe(false);
  });

  test("Gmail's image proxy fetches when the reader opens the mail: a person", () => {
    expect(isMachineOpen({ userAgent: GMAIL_PROXY, ipAddress: '66.249.84.1' })).toBe(false);
  });

  test('scanners and scripted clients are machines', () => {
    for (const userAgent of ['Barracuda Sentinel (EE)', 'Mimecast-Scanner/1.0', 'python-requests/2.31', 'curl/8.4.0', 'Mozilla/5.0 (compatible; Googlebot/2.1)', 'Mozilla/5.0 HeadlessChrome/120.0'])
      expect(isMachineOpen({ userAgent, ipAddress: '198.51.100.4' })).toBe(true);
  });

  test('no user agent at all is a machine', () => {
    expect(isMachineOpen({ ipAddress: '198.51.100.4' })).toBe(true);
    expect(isMachineOpen({ userAgent: '  ' })).toBe(true);
  });

  test("only 17.x.x.x is Apple's: neighbours and look-alikes are not", () => {
    expect(isAppleProxyAddress('17.0.0.1')).toBe(true);
    expect(isAppleProxyAddress('171.0.0.1')).toBe(false);
    expect(isAppleProxyAddress('16.255.255.255')).toBe(false);
    expect(isAppleProxyAddress('17.0.0.300')).toBe(false);
    expect(isAppleProxyAddress(undefined)).toBe(false);
  });
});
