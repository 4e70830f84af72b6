/** DNS records as the operator publishes them: full name and value, each with a copy button. */
import { Badge, CopyButton } from '../../components/ui';
import type { Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';

type DnsRecord = Schemas['DnsRecord'];

const PURPOSES: Record<DnsRecord['purpose'], string> = {
  provider_verification: 'Ownership (SES)',
  dkim: 'DKIM signing',
  spf: 'SPF',
  dmarc: 'DMARC',
  return_path: 'Return path (MAIL FROM)',
  reply_mx: 'Replies (MX)',
  tracking_cname: 'Tracking links',
};

/** A record's full name: its relative name (`@` is the apex) under `domain`. */
export function fullName(name: string, domain: string): string {
  return name === '@' || name === '' ? domain : `${name}.${domain}`;
}

/** The value as a DNS provider's form takes it (a reply MX carries its priority apart). */
function valueOf(record: DnsRecord): string {
  return record.priority !== undefined ? `${record.priority} ${record.value}` : record.value;
}

/**
 * The records of a domain (names relative to `domain`), each with its type, purpose and status at the
 * last check. On a phone each record is one cell, its name and value stacked, so neither is squeezed.
 */
export function RecordsTable(props: { records: readonly DnsRecord[]; domain: string; caption: string }) {
  if (props.records.length === 0) return <p class="empty">No records.</p>;
  return (
    <div class="table-wrap">
      <table class="records">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="wide">Type</th>
            <th scope="col" class="wide">Name</th>
            <th scope="col" class="wide">Value</th>
            <th scope="col" class="wide">Purpose</th>
            <th scope="col" class="wide">Status</th>
            <th scope="col" class="wide">Checked</th>
            <th scope="col" class="narrow">Record</th>
          </tr>
        </thead>
        <tbody>
          {props.records.map((r) => {
            const name = fullName(r.name, props.domain);
            const value = valueOf(r);
            const status = <Badge value={r.status} tone={r.status === 'mismatch' ? 'bad' : r.status === 'propagating' ? 'warn' : undefined} />;
            return (
              <tr key={r.id}>
                <td class="wide">
                  <code class="record-type">{r.record_type}</code>
                </td>
                <td class="wide">
                  <Copyable text={name} label="Copy name" />
                </td>
                <td class="wide">
                  <Copyable text={value} label="Copy value" />
                </td>
                <td class="wide">{PURPOSES[r.purpose] ?? r.purpose}</td>
                <td class="wide">{status}</td>
                <td class="wide">{formatInstant(r.last_checked_at)}</td>
                <td class="narrow">
                  <div class="record-head">
                    <code class="record-type">{r.record_type}</code> {status} <span class="muted">{PURPOSES[r.purpose] ?? r.purpose}</span>
                  </div>
                  <p class="record-label">Name</p>
                  <Copyable text={name} label="Copy name" />
                  <p class="record-label">Value</p>
                  <Copyable text={value} label="Copy value" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Copyable(props: { text: string; label: string }) {
  return (
    <div class="record-cell">
      <code class="record-text">{props.text}</code>
      <CopyButton text={props.text} label={props.label} />
    </div>
  );
}
