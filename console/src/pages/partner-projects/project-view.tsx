/** One of the organization's projects: health, domains, senders, figures, settings, and its key and status actions. */
import { Table, type Column } from '../../components/table';
import { Badge, Card, Details, ErrorNote, Loading, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount, formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { ProjectActions } from './project-actions';
import { ProjectSettings } from './project-settings';

const domainColumns: readonly Column<Schemas['PartnerDomainSummary']>[] = [
  { title: 'Domain', cell: (d) => d.domain },
  { title: 'Verification', cell: (d) => <Badge value={d.verification_status} /> },
  { title: 'Can send', cell: (d) => <Badge value={d.can_send ? 'yes' : 'no'} tone={d.can_send ? 'good' : 'bad'} /> },
];

const senderColumns: readonly Column<Schemas['PartnerSender']>[] = [
  { title: 'Sender', cell: (s) => (s.from_name ? `${s.from_name} <${s.from_email}>` : s.from_email) },
  { title: 'Can send', cell: (s) => <Badge value={s.can_send ? 'yes' : 'no'} tone={s.can_send ? 'good' : 'bad'} /> },
  { title: 'Source', cell: (s) => s.sender_source.replace(/_/g, ' '), wide: true },
  { title: 'Created', cell: (s) => formatInstant(s.created_at), wide: true },
];

type Counts = Schemas['PartnerStats']['domains'][number];
const statColumns: readonly Column<Counts>[] = [
  { title: 'Sender domain', cell: (d) => d.sender_domain },
  { title: 'Sent', cell: (d) => formatCount(d.sent) },
  { title: 'Delivered', cell: (d) => formatCount(d.delivered), wide: true },
  { title: 'Hard bounces', cell: (d) => `${formatCount(d.hard_bounced)} (${d.hard_bounce_rate.toFixed(2)} %)` },
  { title: 'Complaints', cell: (d) => formatCount(d.complained), wide: true },
  { title: 'Opens', cell: (d) => formatCount(d.unique_opens), wide: true },
  { title: 'Clicks', cell: (d) => formatCount(d.unique_clicks), wide: true },
];

/** A figure with its label. */
function Stat(props: { label: string; value: string }) {
  return (
    <div>
      <div class="stat">{props.value}</div>
      <div class="stat-label">{props.label}</div>
    </div>
  );
}

/** The project `#/projects/<id>` names. */
export function ProjectView({ id }: { id: string }) {
  const overview = useLoad(() => unwrap(api.GET('/v1/partner/projects/{projectId}', { params: { path: { projectId: id } } })), [id]);
  const stats = useLoad(() => unwrap(api.GET('/v1/partner/projects/{projectId}/stats', { params: { path: { projectId: id } } })), [id]);

  const back = (
    <p>
      <a href={href(['projects'])}>← All projects</a>
    </p>
  );
  if (overview.error) return (<>{back}<ErrorNote error={overview.error} title="The project could not be read" /></>);
  if (!overview.data) return <Loading label="Loading the project…" />;
  const { project, domains, senders, health } = overview.data;
  const totals = stats.data?.totals;

  return (
    <>
      {back}
      <PageHeader title={project.name} subtitle={<>Slug <code>{project.slug}</code> · created {formatInstant(project.created_at)}</>} actions={<Badge value={project.disabled_at ? 'disabled' : 'active'} />} />
      <Card title="Health" actions={<Badge value={health.status} tone={health.status === 'healthy' ? 'good' : health.status === 'warning' ? 'warn' : 'bad'} />}>
        <p>{health.can_send ? 'The project can send.' : project.disabled_at ? `Disabled on ${formatInstant(project.disabled_at)}: it cannot send.` : 'The project cannot send: it has no verified domain or confirmed sender.'}</p>
        {health.issues.length ? (
          <ul>
            {health.issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        ) : null}
      </Card>
      <Card title="Last 30 days">
        <ErrorNote error={stats.error} />
        {totals ? (
          <>
            <div class="grid stats">
              <Stat label="Sent" value={formatCount(totals.sent)} />
              <Stat label="Delivered" value={formatCount(totals.delivered)} />
              <Stat label="Hard bounce rate" value={`${totals.hard_bounce_rate.toFixed(2)} %`} />
              <Stat label="Complaints" value={formatCount(totals.complained)} />
              <Stat label="Unique opens" value={formatCount(totals.unique_opens)} />
              <Stat label="Unique clicks" value={formatCount(totals.unique_clicks)} />
            </div>
            {stats.data && stats.data.domains.length ? <Table caption="Figures per sender domain" columns={statColumns} rows={stats.data.domains} rowKey={(d) => d.sender_domain} /> : null}
            <p class="hint">
              {formatInstant(stats.data?.period.since)} to {formatInstant(stats.data?.period.until)}. Sent with a test key: {formatCount(totals.sent_test)}.
            </p>
          </>
        ) : stats.loading ? (
          <Loading label="Loading figures…" />
        ) : null}
      </Card>
      <Card title="Domains">
        <Table caption="The project's domains" columns={domainColumns} rows={domains} rowKey={(d) => d.domain} empty="No domains." />
      </Card>
      <Card title="Senders">
        <Table caption="The project's senders" columns={senderColumns} rows={senders} rowKey={(s) => s.id} empty="No senders." />
      </Card>
      <ProjectSettings project={project} onSaved={overview.reload} />
      <ProjectActions project={project} onChanged={overview.reload} />
      <Card title="Details">
        <Details
          items={[
            ['Project id', <code>{project.id}</code>],
            ['Time zone', project.timezone ?? `${project.default_timezone} (default)`],
            ['Country', project.country ?? '—'],
          ]}
        />
      </Card>
    </>
  );
}
