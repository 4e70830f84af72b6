/** The "Enroll leads" form of an active automation: emails or lead ids, one a line, queued to enter. */
import { useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Notice } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { formatCount } from '../../lib/format';

/** The API's limit per enrolment call. */
export const ENROLL_LIMIT = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The lines of the box split into lead ids (uuids) and emails (anything else: the API says which it cannot find). */
export function enrolmentOf(text: string): { lead_ids: string[]; emails: string[] } {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return { lead_ids: lines.filter((l) => UUID.test(l)), emails: lines.filter((l) => !UUID.test(l)) };
}

/** The form; `onEnrolled` lets the view read its runs and figures again. */
export function EnrollForm(props: { automationId: string; onEnrolled: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [answer, setAnswer] = useState<Schemas['AutomationEnrollment']>();
  const named = enrolmentOf(text);
  const count = named.lead_ids.length + named.emails.length;
  const tooMany = count > ENROLL_LIMIT;

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setAnswer(undefined);
    try {
      const body = { ...(named.lead_ids.length ? { lead_ids: named.lead_ids } : {}), ...(named.emails.length ? { emails: named.emails } : {}) };
      setAnswer(await unwrap(api.POST('/v1/automations/{id}/enroll', { params: { path: { id: props.automationId } }, body })));
      props.onEnrolled();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Enroll leads">
      <form class="enroll-form" onSubmit={submit}>
        <Field
          label="Emails or lead ids"
          id="enroll-leads"
          hint={`One a line, up to ${formatCount(ENROLL_LIMIT)}. Each lead enters as the entry rules allow (its filter and re-entry rule).`}
        >
          <textarea id="enroll-leads" rows={5} value={text} aria-describedby="enroll-leads-hint" spellcheck={false} onInput={(e) => setText(e.currentTarget.value)} />
        </Field>
        <div class="inline enroll-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={count === 0 || tooMany}>
            Enroll
          </Button>
          <span class={tooMany ? 'json-check bad' : 'muted small'} role={tooMany ? 'alert' : undefined}>
            {tooMany ? `${formatCount(count)} leads: at most ${formatCount(ENROLL_LIMIT)} per enrolment` : `${formatCount(count)} lead${count === 1 ? '' : 's'} named`}
          </span>
        </div>
      </form>
      <ErrorNote error={error} title="Not enrolled" />
      {answer ? (
        <Notice kind="success">
          <span data-testid="enroll-answer">
            Enrolled: {formatCount(answer.enrolled)} · already enrolled (the re-entry rule keeps them out): {formatCount(answer.already_enrolled)} · not eligible (the entry filter keeps them out):{' '}
            {formatCount(answer.not_eligible)} · not found: {formatCount(answer.not_found.length)}
          </span>
          {answer.not_found.length ? (
            <ul class="chips not-found" aria-label="Not found">
              {answer.not_found.map((ref) => (
                <li key={ref}>{ref}</li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
    </Card>
  );
}
