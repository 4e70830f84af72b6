/**
 * Whether a pixel load is a machine's rather than a person's (docs/decisions.md, "Machine opens").
 * Apple Mail Privacy Protection fetches every image of every mail through Apple's proxies when the
 * mail arrives, whether or not anyone reads it: its requests come from Apple's 17.0.0.0/8 and carry
 * the bare user agent `Mozilla/5.0`. Security gateways and link scanners fetch the pixel while
 * checking the mail, and announce themselves (or nothing) in the user agent. Image proxies that
 * fetch when the reader opens the mail (Gmail's GoogleImageProxy, Yahoo's) stay human opens.
 */

/** User agents of scanners and scripted clients that fetch pixels without a reader. */
const MACHINE_AGENTS = /(bot|crawler|spider)\b|\b(scanner|barracuda|mimecast|proofpoint|symantec|messagelabs|trendmicro|fortinet|sophos|cisco|ironport|safelinks|defender|headlesschrome|phantomjs|python-requests|python-urllib|go-http-client|curl|wget|java|okhttp|axios|node-fetch|libwww-perl)\b/i;

/** True for an address of Apple's 17.0.0.0/8 (IPv4, or IPv4-mapped IPv6). */
export function isAppleProxyAddress(ip: string | undefined): boolean {
  if (!ip) return false;
  const v4 = ip.trim().toLowerCase().replace(/^::ffff:/, '');
  const octets = v4.split('.');
  return octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255) && octets[0] === '17';
}

/** True when the open comes from Apple's proxy, a scanner or a client with no user agent at all. */
export function isMachineOpen(visitor: { userAgent?: string; ipAddress?: string }): boolean {
  const agent = visitor.userAgent?.trim();
  if (!agent) return true;
  if (agent === 'Mozilla/5.0') return true;
  if (isAppleProxyAddress(visitor.ipAddress)) return true;
  return MACHINE_AGENTS.test(agent);
}
