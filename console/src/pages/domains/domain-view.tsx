/** One sending domain: its state, its records to publish, verification, health, reply and tracking domains, senders. */
import { useState } from 'preact/hooks';
import { Table } from '../../components/table';
import { Badge, Button, Card, Details, ErrorNote, Loading, Notice, PageHeader } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href } from '../../lib/router';
import type { ProjectSession } from '../../lib/session';
import { useLoad } from '../../lib/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RecordsTable } from './records';

type View = Schemas['DomainView'];
type Sender = Schemas['SenderProfile'];

/** The view of `domain` (from the route); every read is of the stored state, Verify asks the provider now. */
export function DomainView(props: { domain: string; session: ProjectSession; registered?: string | null }) {
  const domain = props.domain.toLowerCase();
  const view = useLoad(() => unwrap(api.GET('/domains/{domain}', { params: { path: { domain } } })), [domain]);
  const health = useLoad(() => unwrap(api.GET('/domains/health')), []);
  const [verifyBusy, setVerifyBusy] = useState(false);
  const [verifyError, setVerifyError] = useState<Error>();
  const [outcome, setOutcome] = useState<string>();
  const registered = props.registered;

  const verify = async () => {
    setVerifyBusy(true);
    setVerifyError(undefined);
    setOutcome(undefined);
    try {
      const checked = await unwrap(api.POST('/domains/{domain}/verify', { params: { path: { domain } } }));
      setOutcome(
        checked.verification_status === 'verified'
          ? `Verified: ${checked.domain} can send.`
          : checked.verification_status === 'failed'
            ? `Verification failed for ${checked.domain}. Check the records below; recreate the identity if DKIM stays failed.`
            : `Still pending: the provider has not seen every record yet (DKIM ${checked.details?.dkim_verification ?? 'unknown'}). DNS changes can take a while to propagate.`,
      );
      view.reload();
      health.reload();
    } catch (e) {
      setVerifyError(e as Error);
    } finally {
      setVerifyBusy(false);
    }
  };

  const data = view.data;
  const healthEntry = health.data?.data.find((h) => h.domain === domain);
  return (
    <>
      <p class="breadcrumb">
        <a href={href(['domains'])}>Domains</a> <span aria-hidden="true">›</span>
      </p>
      <PageHeader
        title={domain}
        subtitle={data ? <Badge value={data.verification_status} /> : undefined}
        actions={
          <Button variant="primary" busy={verifyBusy} onClick={verify} disabled={!data}>
            Verify now
          </Button>
        }
      />
      {outcome ? <Notice kind={outcome.startsWith('Verified') ? 'success' : 'warning'}>{outcome}</Notice> : null}
      <ErrorNote error={verifyError} title="Verification could not run" />
      <ErrorNote error={view.error} title="The domain could not be read" />
      {view.loading && !data ? <Loading label="Loading the domain…" /> : null}
      {data ? (
        <>
          {registered && data.verification_status === 'pending' ? (
            <Notice kind="info">
              {registered === 'again' ? 'This domain was registered before; its registration is complete.' : 'Registered.'} Publish the records below at your DNS provider, then press
              Verify now.
            </Notice>
          ) : null}
          <StatusCard view={data} />
          <Card title="DNS records">
            <p class="muted card-intro">Publish each record at your DNS provider. Status is as of the last check; Verify now checks ownership, DKIM and the return path again.</p>
            <RecordsTable records={data.dns_records} domain={data.domain} caption={`DNS records of ${data.domain}`} />
            {data.verification_status !== 'verified' ? <OneClickSetup domain={data.domain} /> : null}
          </Card>
          <HealthCard entry={healthEntry} loading={health.loading && !health.data} error={health.error} />
          <SubdomainCard kind="reply" view={data} onChanged={view.reload} />
          <SubdomainCard kind="tracking" view={data} onChanged={view.reload} />
          <SendersCard senders={data.senders} />
          {data.verification_status === 'failed' ? <RecreateCard domain={data.domain} onDone={view.reload} /> : null}
        </>
      ) : null}
    </>
  );
}

function yesNo(value: boolean) {
  return value ? 'Yes' : 'No';
}

function StatusCard(props: { view: View }) {
  const v = props.view;
  return (
    <Card title="Status" class="status-card">
      <Details
        items={[
          ['Verification', <Badge value={v.verification_status} />],
          ['Can send', yesNo(v.can_send)],
          ['Sending enabled by SES', yesNo(v.send_ready)],
          ['Domain (SES)', v.details?.domain_verification ?? '—'],
          ['DKIM (SES)', v.details?.dkim_verification ?? '—'],
          ['MAIL FROM (SES)', v.details?.mail_from_status ?? '—'],
          ['Last checked', formatInstant(v.last_checked_at)],
          ['Registered', formatInstant(v.created_at)],
          ['Verification page', v.verification_url ? <a href={v.verification_url} target="_blank" rel="noopener noreferrer">Open (for your DNS admin)</a> : '—'],
        ]}
      />
    </Card>
  );
}

function HealthCard(props: { entry: Schemas['DomainHealthEntry'] | undefined; loading: boolean; error: Error | undefined }) {
  const e = props.entry;
  return (
    <Card title="Health" class="status-card">
      <ErrorNote error={props.error} title="Health could not be read" />
      {props.loading ? <Loading label="Loading health…" /> : null}
      {e ? (
        <>
          <Details
            items={[
              ['Health', <Badge value={e.status} tone={e.status === 'critical' ? 'bad' : undefined} />],
              ['Sent (30 days)', String(e.sent)],
              ['Permanent bounces (30 days)', `${e.hard_bounce_rate.toFixed(2)} %`],
            ]}
          />
          {e.issues.length > 0 ? (
            <>
              <h3 class="subhead">Issues to fix</h3>
              <ul class="issues">
                {e.issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
            </>
          ) : (
            <p class="muted">No issue found.</p>
          )}
        </>
      ) : !props.loading && !props.error ? (
        <p class="muted">No health report for this domain yet.</p>
      ) : null}
    </Card>
  );
}

const SUBDOMAIN_TEXT = {
  reply: {
    title: 'Reply domain',
    none: 'Replies go to this service\'s own inbound domain. A reply domain (reply.<domain>) gives them an address on your own name.',
    action: 'Set up reply domain',
  },
  tracking: {
    title: 'Tracking domain',
    none: 'Tracked links and opens use this service\'s own host. A tracking domain (track.<domain>) puts them on your own name.',
    action: 'Set up tracking domain',
  },
} as const;

/** The reply or tracking subdomain: its records and status, or the action that sets it up. */
function SubdomainCard(props: { kind: 'reply' | 'tracking'; view: View; onChanged: () => void }) {
  const text = SUBDOMAIN_TEXT[props.kind];
  const sub = props.kind === 'reply' ? props.view.reply_domain : props.view.tracking_domain;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const setUp = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const body = { domain: props.view.domain };
      if (props.kind === 'reply') await unwrap(api.POST('/domains/reply', { body }));
      else await unwrap(api.POST('/domains/tracking', { body }));
      props.onChanged();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const tracking = props.kind === 'tracking' ? props.view.tracking_domain : null;
  return (
    <Card title={text.title}>
      <ErrorNote error={error} title={`The ${text.title.toLowerCase()} was not set up`} />
      {sub ? (
        <>
          <Details
            items={[
              ['Name', sub.domain],
              ['Status', <Badge value={sub.status} />],
              ...(tracking ? ([['HTTPS', <Badge value={tracking.https} tone={tracking.https === 'active' ? 'good' : tracking.https === 'failed' ? 'bad' : 'neutral'} />]] as const) : []),
              ['Last checked', formatInstant(sub.last_checked_at)],
            ]}
          />
          {tracking?.https_detail ? <p class="muted">{tracking.https_detail}</p> : null}
          <RecordsTable records={sub.records} domain={props.view.domain} caption={`Records of ${sub.domain}`} />
        </>
      ) : (
        <div class="inline">
          <p class="muted grow">{text.none}</p>
          <Button busy={busy} onClick={setUp}>
            {text.action}
          </Button>
        </div>
      )}
    </Card>
  );
}

function SendersCard(props: { senders: readonly Sender[] }) {
  return (
    <Card title="Senders">
      <Table<Sender>
        caption="Senders on this domain"
        rowKey={(s) => s.id}
        rows={props.senders}
        empty="No sender on this domain."
        columns={[
          { title: 'Address', cell: (s) => s.from_email },
          { title: 'Name', cell: (s) => s.from_name },
          { title: 'Can send', cell: (s) => <Badge value={s.can_send ? 'yes' : 'no'} tone={s.can_send ? 'good' : 'warn'} /> },
          { title: 'DKIM of the domain', wide: true, cell: (s) => yesNo(s.domain_authenticated) },
          { title: 'Added', wide: true, cell: (s) => formatInstant(s.created_at) },
        ]}
      />
    </Card>
  );
}

/** For DKIM stuck failed at the provider: a new identity, with new DKIM records to publish. */
function RecreateCard(props: { domain: string; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const recreate = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(api.POST('/domains/{domain}/recreate', { params: { path: { domain: props.domain } } }));
      setAsking(false);
      props.onDone();
    } catch (e) {
      setError(e as Error);
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Recreate the identity">
      <p class="muted">Verification failed. Recreating deletes the SES identity and makes a new one: the DKIM records change and the domain goes back to pending.</p>
      <ErrorNote error={error} title="The identity was not recreated" />
      <Button variant="danger" onClick={() => setAsking(true)}>
        Recreate identity
      </Button>
      <ConfirmDialog open={asking} title={`Recreate ${props.domain}?`} confirmLabel="Recreate" busy={busy} onConfirm={recreate} onCancel={() => setAsking(false)}>
        <p>The current DKIM records stop working; you will publish new ones.</p>
      </ConfirmDialog>
    </Card>
  );
}

/** Domain Connect: whether the DNS provider can create the records with one click (asked on demand: it looks the provider up). */
function OneClickSetup(props: { domain: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [answer, setAnswer] = useState<Schemas['DomainConnect']>();
  const check = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setAnswer(await unwrap(api.GET('/domains/{domain}/domain-connect', { params: { path: { domain: props.domain } } })));
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="one-click">
      <ErrorNote error={error} title="The DNS provider could not be asked" />
      {answer?.supported && answer.apply_url ? (
        <Notice kind="success">
          {answer.provider_name ?? 'Your DNS provider'} can create these records for you:{' '}
          <a href={answer.apply_url} target="_blank" rel="noopener noreferrer">
            set them up in one click
          </a>
          .
        </Notice>
      ) : answer ? (
        <Notice kind="info">Your DNS provider offers no one-click setup (Domain Connect): copy the records by hand.</Notice>
      ) : (
        <Button class="small" busy={busy} onClick={check}>
          Check for one-click setup
        </Button>
      )}
    </div>
  );
}
