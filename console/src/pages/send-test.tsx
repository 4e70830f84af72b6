/** Send a test mail: from a sender of the project that can send, through `POST /v1/send-email`, then watch it in Activity. */
import { useEffect, useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Loading, Notice, PageHeader } from '../components/ui';
import { api, unwrap } from '../lib/api';
import { href } from '../lib/router';
import { useLoad } from '../lib/use-load';
import type { ProjectPageProps } from './page';

/**
 * SES's mailbox simulator addresses and what they do (as SES documents them, and as the local
 * cloud's simulator, local/mailbox-simulator.ts, plays them): sending to them costs no reputation.
 */
const SIMULATOR = [
  { address: 'success@simulator.amazonses.com', outcome: 'Delivered' },
  { address: 'bounce@simulator.amazonses.com', outcome: 'Permanent bounce (the address gets suppressed)' },
  { address: 'complaint@simulator.amazonses.com', outcome: 'Delivered, then a complaint' },
  { address: 'ooto@simulator.amazonses.com', outcome: 'Delivered, then an out-of-office delay' },
  { address: 'suppressionlist@simulator.amazonses.com', outcome: 'Bounce: on SES\'s account suppression list' },
] as const;

const SAMPLE_HTML = '<h1>Hello</h1>\n<p>This is a test mail sent from the Mailroom console.</p>';

/** The Send a test mail page. */
export function SendTest({ session }: ProjectPageProps) {
  const senders = useLoad(() => unwrap(api.GET('/domains/senders')), []);
  const usable = (senders.data?.data ?? []).filter((s) => s.can_send);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState<string>(SIMULATOR[0].address);
  const [subject, setSubject] = useState('A test mail from the console');
  const [html, setHtml] = useState(SAMPLE_HTML);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [sent, setSent] = useState<{ id: string; to: string }>();

  // The first sender that can send is the default, once the list is in.
  useEffect(() => {
    if (!from && usable.length > 0) setFrom(usable[0].from_email);
  }, [senders.data]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSent(undefined);
    try {
      const answer = await unwrap(
        api.POST('/v1/send-email', { body: { sender_email: from, recipient_email: to.trim(), subject, html_body: html, ...(text.trim() ? { text_body: text } : {}) } }),
      );
      setSent({ id: answer.email_id, to: to.trim() });
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Send a test mail"
        subtitle={
          session.mode === 'test'
            ? 'Signed in with the test key: the mail is sent like any other and flagged as a test mail, shown in this key\'s Activity and statistics only.'
            : 'Sent through SES like any mail of the project, and counted in its statistics.'
        }
      />
      {sent ? (
        <Notice kind="success">
          Queued for {sent.to}. Activity id <code>{sent.id}</code>: <a href={href(['activity', sent.id])}>watch its status in Activity</a>.
        </Notice>
      ) : null}
      <ErrorNote error={error} title="The mail was not sent" />
      <Card class="send-card">
        <ErrorNote error={senders.error} title="The senders could not be loaded" />
        {senders.loading && !senders.data ? <Loading label="Loading the senders…" /> : null}
        {senders.data && usable.length === 0 ? (
          <Notice kind="warning">
            No sender of this project can send yet. <a href={href(['domains'])}>Register and verify a domain</a> first.
          </Notice>
        ) : null}
        <form onSubmit={submit} aria-label="Test mail" class="send-form">
          <Field label="From" id="send-from" hint="The project's senders that can send (a verified domain, or a confirmed mailbox).">
            <select id="send-from" required value={from} onChange={(e) => setFrom(e.currentTarget.value)} aria-describedby="send-from-hint">
              {usable.length === 0 ? <option value="">No sender available</option> : null}
              {usable.map((s) => (
                <option key={s.id} value={s.from_email}>
                  {s.from_name ? `${s.from_name} <${s.from_email}>` : s.from_email}
                </option>
              ))}
            </select>
          </Field>
          <Field label="To" id="send-to" hint="One address, or several separated by commas (at most 50).">
            <input id="send-to" type="text" inputMode="email" autoComplete="off" spellcheck={false} required value={to} onInput={(e) => setTo(e.currentTarget.value)} aria-describedby="send-to-hint" />
          </Field>
          <fieldset class="simulator">
            <legend>SES's mailbox simulator</legend>
            <p class="hint">Addresses that act out an outcome without touching your reputation. Pick one as the recipient:</p>
            <ul>
              {SIMULATOR.map((s) => (
                <li key={s.address}>
                  <button
                    type="button"
                    class="btn plain small"
                    aria-pressed={to.trim() === s.address}
                    aria-label={s.address}
                    aria-describedby={`sim-${s.address.split('@')[0]}`}
                    onClick={() => setTo(s.address)}
                  >
                    {s.address.split('@')[0]}@
                  </button>
                  <span class="muted small" id={`sim-${s.address.split('@')[0]}`}>
                    {s.outcome}
                  </span>
                </li>
              ))}
            </ul>
          </fieldset>
          <Field label="Subject" id="send-subject">
            <input id="send-subject" value={subject} onInput={(e) => setSubject(e.currentTarget.value)} />
          </Field>
          <Field label="HTML body" id="send-html">
            <textarea id="send-html" required value={html} onInput={(e) => setHtml(e.currentTarget.value)} />
          </Field>
          <Field label="Text body (optional)" id="send-text" hint="Without it, the API derives the text part from the HTML.">
            <textarea id="send-text" value={text} onInput={(e) => setText(e.currentTarget.value)} aria-describedby="send-text-hint" />
          </Field>
          <Button type="submit" variant="primary" busy={busy} disabled={!from}>
            Send the test mail
          </Button>
        </form>
      </Card>
    </>
  );
}
