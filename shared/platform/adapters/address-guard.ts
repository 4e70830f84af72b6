import type { Agent } from 'node:http';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent, type RequestFilteringAgentOptions } from 'request-filtering-agent';

/**
 * The one SSRF guard of every URL the service itself requests (attachments, webhooks): only public
 * unicast addresses, unless loopback is allowed (local mode and tests; ALLOW_PRIVATE_URLS=true).
 * Private, link-local, unique-local, CGNAT, multicast and unspecified addresses are refused in both
 * modes. The check runs on the address the socket actually connects to (an IP literal before
 * connecting, a host name on its lookup result), so a name that resolves to a private address, or
 * changes its answer between two lookups (DNS rebinding), is refused too.
 */
export interface AddressPolicy {
  /** Also allow 127.0.0.1 and ::1 (and names resolving only to them). */
  readonly allowLoopback: boolean;
}

// Exact addresses, not ranges: the library matches an IPv6 address against an IPv4 range only with a warning.
const LOOPBACK = ['127.0.0.1', '::1'];

/** A fresh agent (no keep-alive) for one request to a URL of this protocol, guarded by the policy. */
export function guardedAgent(protocol: string, policy: AddressPolicy): Agent {
  const options: RequestFilteringAgentOptions & { keepAlive: false } = {
    keepAlive: false,
    allowPrivateIPAddress: false,
    allowMetaIPAddress: false,
    allowIPAddressList: policy.allowLoopback ? LOOPBACK : [],
  };
  return protocol === 'https:' ? new RequestFilteringHttpsAgent(options) : new RequestFilteringHttpAgent(options);
}

/** The guard's refusal said plainly (`Refusing to connect to a private address ...`), or undefined for any other error. */
export function refusalMessage(error: Error): string | undefined {
  // request-filtering-agent refuses with `DNS lookup <address>(family:..., host:...) is not allowed. Because, ...`.
  const match = /^DNS lookup (\S+?)\(family:[^,]*, host:([^)]*)\) is not allowed/.exec(error.message);
  if (!match) return undefined;
  const host = match[2] && match[2] !== 'undefined' && match[2] !== match[1] ? ` for ${match[2]}` : '';
  return `Refusing to connect to a private address ${match[1]}${host}`;
}
