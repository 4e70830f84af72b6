import dns2 from 'dns2';
import { answerFromZone, zoneKey, type DnsEntry, type DnsType } from '../../local/emulators/dns-answer';

export type { DnsAnswer, DnsEntry, DnsType } from '../../local/emulators/dns-answer';

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, a free port) for tests. It answers from a
 * mutable map keyed by name and type; a name with no entry of any type is NXDOMAIN, a name with
 * entries of other types only is an empty NOERROR answer (no data).
 */
export class TestDnsServer {
  private readonly entries = new Map<string, DnsEntry>();
  private readonly server = dns2.createUDPServer((request, send) => {
    void send(answerFromZone(request, this.entries));
  });

  private constructor() {}

  /** Starts a server; `server` is `127.0.0.1:<port>`, ready for NodeDnsResolver or DNS_SERVERS. */
  static async start(): Promise<TestDnsServer> {
    const dns = new TestDnsServer();
    await dns.server.listen(0, '127.0.0.1');
    return dns;
  }

  /** `127.0.0.1:<port>`. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get port(): number {
    return this.server.address().port;
  }

  /** Sets (replaces) the answers for a name and type. */
  set(name: string, type: DnsType, entry: DnsEntry): this {
    this.entries.set(zoneKey(name, type), entry);
    return this;
  }

  /** Forgets every answer. */
  clear(): void {
    this.entries.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
