import dns2 from 'dns2';

const { Packet } = dns2;
/** RFC 1035 response codes (dns2 has them at runtime but not in its types). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 };

export type DnsType = 'TXT' | 'MX' | 'CNAME';

/** One answer: a TXT record (a string, or several character-strings), an MX, or a CNAME target. */
export type DnsAnswer = string | string[] | { exchange: string; priority: number };

/** `SERVFAIL` makes every query for the name fail, as a broken authoritative server would. */
export type DnsEntry = DnsAnswer[] | 'SERVFAIL';

const TYPES: Record<DnsType, number> = { TXT: Packet.TYPE.TXT, MX: Packet.TYPE.MX, CNAME: Packet.TYPE.CNAME };

/** The lower-cased name without its trailing dot. */
export const normalizeName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The key of a name and type in a zone map (`example.com TXT`). */
export const zoneKey = (name: string, type: DnsType) => `${normalizeName(name)} ${type}`;

/**
 * An authoritative answer from a zone map keyed by `zoneKey`: a name with no entry of any type is
 * NXDOMAIN, a name with entries of other types only is an empty NOERROR answer (no data).
 */
export function answerFromZone(request: dns2.Packet, zone: ReadonlyMap<string, DnsEntry>): dns2.Packet {
  const response = Packet.createResponseFromRequest(request);
  response.header.aa = 1;
  const [question] = request.questions;
  if (!question) return response;
  const name = normalizeName(question.name);
  const type = (Object.keys(TYPES) as DnsType[]).find((t) => TYPES[t] === question.type);
  const entry = type ? zone.get(zoneKey(name, type)) : undefined;
  if (entry === 'SERVFAIL') {
    response.header.rcode = RCODE.SERVFAIL;
    return response;
  }
  if (!entry) {
    if (![...zone.keys()].some((k) => k.startsWith(`${name} `))) response.header.rcode = RCODE.NXDOMAIN;
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
