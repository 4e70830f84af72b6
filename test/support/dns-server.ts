import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 response codes (dns2 has them at runtime but not in its types). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 };

export type DnsType = 'TXT' | 'MX' | 'CNAME';

/** One answer: a TXT record (a string, or several character-strings), an MX, or a CNAME target. */
export type DnsAnswer = string | string[] | { exchange: string; priority: number };

/** `SERVFAIL` makes every query for the name fail, as a broken authoritative server would. */
export type DnsEntry = DnsAnswer[] | 'SERVFAIL';

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, a free port) for tests. It answers from a
 * mutable map keyed by name and type; a name with no entry of any type is NXDOMAIN, a name with
 * entries of other types only is an empty NOERROR answer (no data).
 */
export class TestDnsServer {
  private readonly entries = new Map<string, DnsEntry>();
  private readonly server = dns2.createUDPServer((request, send) => {
    void send(this.answer(request));
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
    this.entries.set(key(name, type), entry);
    return this;
  }

  /** Forgets every answer. */
  clear(): void {
    this.entries.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: dns2.Packet): dns2.Packet {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const [question] = request.questions;
    if (!question) return response;
    const name = normalize(question.name);
    const type = (Object.keys(TYPES) as DnsType[]).find((t) => TYPES[t] === question.type);
    const entry = type ? this.entries.get(key(name, type)) : undefined;
    if (entry === 'SERVFAIL') {
      response.header.rcode = RCODE.SERVFAIL;
      return response;
    }
    if (!entry) {
      const known = [...this.entries.keys()].some((k) => k.startsWith(`${name} `));
      if (!known) response.header.rcode = RCODE.NXDOMAIN;
      return response;
    }
    for (const answer of entry) {
      const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60 };
      if (type === 'TXT') response.answers.push({ ...base, data: answer as string | string[] } as dns2.Packet.Resource);
      else if (type === 'MX') response.answers.push({ ...base, ...(answer as { exchange: string; priority: number }) } as dns2.Packet.Resource);
      else response.answers.push({ ...base, domain: answer as string } as dns2.Packet.Resource);
    }
    return response;
  }
}

const TYPES: Record<DnsType, number> = { TXT: Packet.TYPE.TXT, MX: Packet.TYPE.MX, CNAME: Packet.TYPE.CNAME };

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');
const key = (name: string, type: DnsType) => `${normalize(name)} ${type}`;
