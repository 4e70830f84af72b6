/** DNS records as the operator publishes them: full name and value, each with a copy button. */
import { Table } from '../../components/table';
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

/** The records of a domain (names relative to `domain`), each with its type, purpose and status at the last check. */
export function RecordsTable(props: { records: readonly DnsRecord[]; domain: string; caption: string }) {
  return (
    <Table<DnsRecord>
      caption={props.caption}
      rowKey={(r) => r.id}
      rows={props.records}
      empty="No records."
      columns={[
        { title: 'Type', cell: (r) => <code>{r.record_type}</code> },
        {
          title: 'Name',
          cell: (r) => (
            <div class="record-cell">
              <code class="record-text">{fullName(r.name, props.domain)}</code>
              <CopyButton text={fullName(r.name, props.domain)} label="Copy name" />
            </div>
          ),
        },
        {
          title: 'Value',
          cell: (r) => (
            <div class="record-cell">
              <code class="record-text">{valueOf(r)}</code>
              <CopyButton text={valueOf(r)} label="Copy value" />
            </div>
          ),
        },
        { title: 'Purpose', wide: true, cell: (r) => PURPOSES[r.purpose] ?? r.purpose },
        { title: 'Status', cell: (r) => <Badge value={r.status} tone={r.status === 'mismatch' ? 'bad' : r.status === 'propagating' ? 'warn' : undefined} /> },
        { title: 'Checked', wide: true, cell: (r) => formatInstant(r.last_checked_at) },
      ]}
    />
  );
}
