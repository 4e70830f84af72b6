/** The project's sending domains, one page at a time, with the form that registers one. */
import { useState } from 'preact/hooks';
import { Table } from '../../components/table';
import { Badge, Button, Card, ErrorNote, Field, Loading, Notice, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, navigate, replaceQuery } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import type { ProjectPageProps } from '../page';
import { DeepPager, pageOf } from './deep-pager';

const PER_PAGE = 25;

type Entry = Schemas['DomainListEntry'];
type Health = Schemas['DomainHealthEntry'];

/** The list of domains with their state and health, and the register form. */
export function DomainList(props: ProjectPageProps) {
  const page = pageOf(props.route.query);
  const cursor = props.route.query.get('cursor') ?? undefined;
  const list = useLoad(
    () => unwrap(api.GET('/domains', { params: { query: cursor ? { cursor, per_page: String(PER_PAGE) } : { page: String(page), per_page: String(PER_PAGE) } } })),
    [page, cursor],
  );
  // Health covers every domain of the project in one answer (the API's own summary), so it is read once.
  const health = useLoad(() => unwrap(api.GET('/domains/health')), []);
  const healthOf = new Map((health.data?.data ?? []).map((h) => [h.domain, h]));
  const rows = list.data?.data ?? [];
  return (
    <>
      <PageHeader title="Domains" subtitle="The domains this project sends from, their DNS records and verification." />
      {props.session.mode === 'test' ? <Notice kind="info">Domains are the project's own: the test key sees and registers the same domains as the live key.</Notice> : null}
      <RegisterDomain />
      <Card title="Sending domains">
        {health.data && health.data.summary.total > 0 ? (
          <p class="muted domain-summary">
            {health.data.summary.healthy} healthy · {health.data.summary.warning} with warnings · {health.data.summary.critical} critical
          </p>
        ) : null}
        <ErrorNote error={list.error} title="The domains could not be listed" />
        {list.loading && !list.data ? <Loading label="Loading domains…" /> : null}
        {list.data ? (
          <Table<Entry>
            caption="Sending domains"
            rowKey={(d) => d.domain}
            rows={rows}
            empty="No domain yet: register one above."
            columns={[
              { title: 'Domain', cell: (d) => <a href={href(['domains', d.domain])}>{d.domain}</a> },
              { title: 'Status', cell: (d) => <Badge value={d.verification_status} /> },
              { title: 'Can send', wide: true, cell: (d) => (d.can_send ? 'Yes' : 'No') },
              { title: 'Health', cell: (d) => <HealthCell health={healthOf.get(d.domain)} /> },
              { title: 'Reply domain', wide: true, cell: (d) => (d.reply_domain ? <SubdomainCell name={d.reply_domain.domain} status={d.reply_domain.status} /> : '—') },
              { title: 'Tracking domain', wide: true, cell: (d) => (d.tracking_domain ? <SubdomainCell name={d.tracking_domain.domain} status={d.tracking_domain.status} /> : '—') },
              { title: 'Last checked', wide: true, cell: (d) => formatInstant(d.last_checked_at) },
            ]}
          />
        ) : null}
        <DeepPager
          label="Domain pages"
          info={list.data?.pagination}
          shown={rows.length}
          cursor={cursor}
          onPage={(p) => replaceQuery({ page: String(p) })}
          onCursor={(c) => replaceQuery({ cursor: c })}
        />
      </Card>
    </>
  );
}

function HealthCell(props: { health: Health | undefined }) {
  if (!props.health) return <span class="muted">—</span>;
  const issues = props.health.issues.length;
  return (
    <span class="inline">
      <Badge value={props.health.status} tone={props.health.status === 'critical' ? 'bad' : undefined} />
      {issues > 0 ? <span class="muted">{issues === 1 ? '1 issue' : `${issues} issues`}</span> : null}
    </span>
  );
}

function SubdomainCell(props: { name: string; status: string }) {
  return (
    <span>
      {props.name} <Badge value={props.status} />
    </span>
  );
}

/** The register form: domain, sender name and sender address; opens the new domain's view with its records. */
function RegisterDomain() {
  const [domain, setDomain] = useState('');
  const [senderName, setSenderName] = useState('');
  const [senderEmail, setSenderEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const registered = await unwrap(
        api.POST('/domains/register', { body: { domain: name, sender_name: senderName.trim(), sender_email: (senderEmail.trim() || `hello@${name}`).toLowerCase() } }),
      );
      navigate(href(['domains', registered.domain], { registered: registered.reused ? 'again' : 'new' }));
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Register a domain">
      <form class="register-form" onSubmit={submit} aria-label="Register a domain">
        <div class="form-row">
          <Field label="Domain" id="register-domain" hint="A domain or subdomain you control, e.g. mail.example.com">
            <input id="register-domain" name="domain" required autoComplete="off" spellcheck={false} value={domain} aria-describedby="register-domain-hint" onInput={(e) => setDomain(e.currentTarget.value)} />
          </Field>
          <Field label="Sender name" id="register-sender-name" hint="The name recipients see">
            <input id="register-sender-name" name="sender_name" required value={senderName} aria-describedby="register-sender-name-hint" onInput={(e) => setSenderName(e.currentTarget.value)} />
          </Field>
          <Field label="Sender address" id="register-sender-email" hint={name ? `Must end in @${name}; hello@${name} when empty` : 'An address on the domain'}>
            <input
              id="register-sender-email"
              name="sender_email"
              type="email"
              autoComplete="off"
              spellcheck={false}
              placeholder={name ? `hello@${name}` : ''}
              value={senderEmail}
              aria-describedby="register-sender-email-hint"
              onInput={(e) => setSenderEmail(e.currentTarget.value)}
            />
          </Field>
        </div>
        <ErrorNote error={error} title="The domain was not registered" />
        <Button type="submit" variant="primary" busy={busy}>
          Register
        </Button>
      </form>
    </Card>
  );
}
