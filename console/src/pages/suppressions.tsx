/** Suppressions: the addresses the project does not send to; search, add, remove. */
import { useState } from 'preact/hooks';
import { Table } from '../components/table';
import { Badge, Button, Card, ErrorNote, Field, Loading, Notice, PageHeader } from '../components/ui';
import { api, unwrap, type Schemas } from '../lib/api';
import { formatInstant } from '../lib/format';
import { replaceQuery } from '../lib/router';
import { useLoad } from '../lib/use-load';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DeepPager, pageOf } from './domains/deep-pager';
import type { ProjectPageProps } from './page';

const PER_PAGE = 50;
const REASONS = ['bounce', 'complaint', 'unsubscribe', 'manual'] as const;
const REASON_TONE: Record<string, 'bad' | 'warn' | 'neutral'> = { bounce: 'bad', complaint: 'bad', unsubscribe: 'warn', manual: 'neutral' };

/** An entry as the list answers it (`removed_at` and `removed_by` are always null there). */
type Entry = Omit<Schemas['Suppression'], 'removed_at' | 'removed_by'>;

/** The suppression list, one page at a time, searched by the start of the address and filtered by reason. */
export function Suppressions(props: ProjectPageProps) {
  const query = props.route.query;
  const search = query.get('search') ?? '';
  const reason = query.get('reason') ?? '';
  const page = pageOf(query);
  const cursor = query.get('cursor') ?? undefined;
  const list = useLoad(
    () =>
      unwrap(
        api.GET('/v1/suppressions', {
          params: { query: { ...(search ? { search } : {}), ...(reason ? { reason } : {}), per_page: String(PER_PAGE), ...(cursor ? { cursor } : { page: String(page) }) } },
        }),
      ),
    [search, reason, page, cursor],
  );
  const [removing, setRemoving] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [removeError, setRemoveError] = useState<Error>();
  const [done, setDone] = useState<string>();

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    setRemoveError(undefined);
    try {
      const answer = await unwrap(api.DELETE('/v1/suppressions/{email}', { params: { path: { email: removing } } }));
      setDone(`${answer.email} was removed: mail to it will be sent again.`);
      list.reload();
    } catch (e) {
      setRemoveError(e as Error);
    } finally {
      setBusy(false);
      setRemoving(undefined);
    }
  };

  const rows = list.data?.data ?? [];
  return (
    <>
      <PageHeader title="Suppressions" subtitle="Addresses this project does not send to: hard bounces, complaints, unsubscribes, and those added by hand." />
      {props.session.mode === 'test' ? <Notice kind="info">The suppression list is the project's own: the test key sees and changes the same list as the live key.</Notice> : null}
      <AddSuppression onAdded={(text) => { setDone(text); list.reload(); }} />
      <Card title="Suppressed addresses">
        <SearchForm search={search} reason={reason} />
        {done ? <Notice kind="success">{done}</Notice> : null}
        <ErrorNote error={removeError} title="The address was not removed" />
        <ErrorNote error={list.error} title="The list could not be read" />
        {list.loading && !list.data ? <Loading label="Loading suppressions…" /> : null}
        {list.data ? (
          <Table<Entry>
            caption="Suppressed addresses"
            rowKey={(s) => s.email}
            rows={rows}
            empty={search || reason ? 'No suppressed address matches.' : 'No address is suppressed.'}
            columns={[
              { title: 'Address', cell: (s) => <span class="mono">{s.email}</span> },
              { title: 'Reason', cell: (s) => <Badge value={s.reason} tone={REASON_TONE[s.reason]} /> },
              { title: 'Source', wide: true, cell: (s) => s.source },
              { title: 'Description', wide: true, cell: (s) => s.description || [s.bounce_type, s.bounce_subtype, s.complaint_feedback_type].filter(Boolean).join(' · ') || '—' },
              { title: 'Suppressed', wide: true, cell: (s) => formatInstant(s.suppressed_at) },
              {
                title: 'Action',
                cell: (s) => (
                  <Button class="small" aria-label={`Remove ${s.email}`} onClick={() => { setDone(undefined); setRemoving(s.email); }}>
                    Remove
                  </Button>
                ),
              },
            ]}
          />
        ) : null}
        <DeepPager
          label="Suppression pages"
          info={list.data?.pagination}
          shown={rows.length}
          cursor={cursor}
          onPage={(p) => replaceQuery({ search, reason, page: String(p) })}
          onCursor={(c) => replaceQuery({ search, reason, cursor: c })}
        />
      </Card>
      <ConfirmDialog open={removing !== undefined} title="Remove from the suppression list?" confirmLabel="Remove" busy={busy} onConfirm={remove} onCancel={() => setRemoving(undefined)}>
        <p>
          Mail to <strong>{removing}</strong> will be sent again. If it bounced or complained, sending to it again can hurt the project's reputation.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The search: the start of an address and a reason; applied to the view's query (a link keeps it). */
function SearchForm(props: { search: string; reason: string }) {
  const [search, setSearch] = useState(props.search);
  const [reason, setReason] = useState(props.reason);
  const submit = (event: Event) => {
    event.preventDefault();
    replaceQuery({ search: search.trim(), reason });
  };
  return (
    <form class="filters" role="search" aria-label="Search suppressions" onSubmit={submit}>
      <Field label="Address starts with" id="suppression-search">
        <input id="suppression-search" name="search" type="search" autoComplete="off" spellcheck={false} value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </Field>
      <Field label="Reason" id="suppression-reason">
        <select id="suppression-reason" name="reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
          <option value="">Any reason</option>
          {REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Button type="submit">Search</Button>
    </form>
  );
}

/** Adds addresses by hand (the API records them with reason `manual`). */
function AddSuppression(props: { onAdded: (text: string) => void }) {
  const [emails, setEmails] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const list = emails.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean);
    setBusy(true);
    setError(undefined);
    try {
      const answer = await unwrap(api.POST('/v1/suppressions', { body: { emails: list, ...(description.trim() ? { description: description.trim() } : {}) } }));
      const parts = [
        answer.added.length ? `Added ${answer.added.join(', ')}.` : '',
        answer.already.length ? `Already suppressed: ${answer.already.join(', ')}.` : '',
      ];
      props.onAdded(parts.filter(Boolean).join(' '));
      setEmails('');
      setDescription('');
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Add addresses">
      <form onSubmit={submit} aria-label="Add addresses to the suppression list">
        <div class="form-row">
          <Field label="Addresses" id="suppression-add-emails" hint="One or more, separated by spaces, commas or new lines (up to 1,000). Added with reason manual.">
            <textarea id="suppression-add-emails" name="emails" class="short" required spellcheck={false} value={emails} aria-describedby="suppression-add-emails-hint" onInput={(e) => setEmails(e.currentTarget.value)} />
          </Field>
          <Field label="Description (optional)" id="suppression-add-description" hint="Why, for whoever reads the list later">
            <input id="suppression-add-description" name="description" value={description} aria-describedby="suppression-add-description-hint" onInput={(e) => setDescription(e.currentTarget.value)} />
          </Field>
        </div>
        <ErrorNote error={error} title="Nothing was added" />
        <Button type="submit" variant="primary" busy={busy}>
          Suppress
        </Button>
      </form>
    </Card>
  );
}
