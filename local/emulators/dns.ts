import fs from 'node:fs';
import dns2 from 'dns2';
import { answerFromZone, zoneKey, type DnsAnswer, type DnsType } from './dns-answer';

export type { DnsAnswer, DnsType } from './dns-answer';

/**
 * The local cloud's DNS: an authoritative server on 127.0.0.1 (UDP) answering only what was
 * published to it, so that a domain's records can be "published" on a laptop and the product's own
 * resolver (pointed here by DNS_SERVERS) finds them, exactly as it would find them on the Internet.
 * Published records are kept in `stateFile`, so a restart keeps them. Any other name is NXDOMAIN.
 */
export class LocalDnsServer {
  private readonly records: Map<string, DnsAnswer[]>;
  private readonly server = dns2.createUDPServer((request, send) => {
    void send(answerFromZone(request, this.records));
  });

  private constructor(private readonly stateFile: string) {
    const saved = fs.existsSync(stateFile) ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, DnsAnswer[]>) : {};
    this.records = new Map(Object.entries(saved));
  }

  /** Starts a server on `port` (0: a free one). */
  static async start(options: { port: number; stateFile: string }): Promise<LocalDnsServer> {
    const dns = new LocalDnsServer(options.stateFile);
    await dns.server.listen(options.port, '127.0.0.1');
    return dns;
  }

  /** `127.0.0.1:<port>`, the form DNS_SERVERS takes. */
  get address(): string {
    return `127.0.0.1:${this.server.address().port}`;
  }

  /**
   * Publishes one record. TXT and MX values add to those already at the name (two projects may
   * each publish their own token at one name); a CNAME replaces, as a name has one CNAME at most.
   */
  publish(name: string, type: DnsType, value: DnsAnswer): void {
    const k = zoneKey(name, type);
    const current = type === 'CNAME' ? [] : (this.records.get(k) ?? []);
    if (!current.some((v) => JSON.stringify(v) === JSON.stringify(value))) current.push(value);
    this.records.set(k, current);
    fs.writeFileSync(this.stateFile, JSON.stringify(Object.fromEntries(this.records), null, 2));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
