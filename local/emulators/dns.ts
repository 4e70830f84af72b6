import fs from 'node:fs';
import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 response code (dns2 has it at runtime but not in its types). */
const NXDOMAIN = 3;

export type DnsType = 'TXT' | 'MX' | 'CNAME';

/** One answer: a TXT string, an MX, or a CNAME target. */
export type DnsAnswer = string | { exchange: string; priority: number };

const TYPES: Record<DnsType, number> = { TXT: Packet.TYPE.TXT, MX: Packet.TYPE.MX, CNAME: Packet.TYPE.CNAME };

/**
 * The local cloud's DNS: an authoritative server on 127.0.0.1 (UDP) answering only what was
 * published to it, so that a domain's records can be "published" on a laptop and the product's own
 * resolver (pointed here by DNS_SERVERS) finds them, exactly as it would find them on the Internet.
 * Published records are kept in `stateFile`, so a restart keeps them. Any other name is NXDOMAIN.
 */
export class LocalDnsServer {
  private readonly records: Record<string, DnsAnswer[]>;
  private readonly server = dns2.createUDPServer((request, send) => {
    void send(this.answer(request));
  });

  private constructor(private readonly stateFile: string) {
    this.records = fs.existsSync(stateFile) ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, DnsAnswer[]>) : {};
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
    const k = key(name, type);
    const current = type === 'CNAME' ? [] : (this.records[k] ?? []);
    if (!current.some((v) => JSON.stringify(v) === JSON.stringify(value))) current.push(value);
    this.records[k] = current;
    fs.writeFileSync(this.stateFile, JSON.stringify(this.records, null, 2));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: dns2.Packet): dns2.Packet {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const [question] = request.questions;
    if (!question) return response;
    const name = normalize(question.name);
    const type = (Object.keys(TYPES) as DnsType[]).find((t) => TYPES[t] === question.type);
    const entry = type ? this.records[key(name, type)] : undefined;
    if (!entry) {
      if (!Object.keys(this.records).some((k) => k.startsWith(`${name} `))) response.header.rcode = NXDOMAIN;
      return response;
    }
    for (const answer of entry) {
      const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60 };
      if (type === 'TXT') response.answers.push({ ...base, data: answer as string } as dns2.Packet.Resource);
      else if (type === 'MX') response.answers.push({ ...base, ...(answer as { exchange: string; priority: number }) } as dns2.Packet.Resource);
      else response.answers.push({ ...base, domain: answer as string } as dns2.Packet.Resource);
    }
    return response;
  }
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');
const key = (name: string, type: DnsType) => `${normalize(name)} ${type}`;
