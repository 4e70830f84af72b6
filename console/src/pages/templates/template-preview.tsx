/**
 * The live preview of a template being edited: rendered by the API's own dry run (`POST /send-email`
 * with `dry_run: true`), so it shows exactly what a send would; nothing is queued or recorded.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Card, ErrorNote } from '../../components/ui';
import { api, unwrap } from '../../lib/api';

/** Time the editor must rest before the preview asks the API again. */
const DEBOUNCE_MS = 400;
/** A dry run needs addresses; nothing is sent to them. */
const PREVIEW_ADDRESS = 'preview@example.com';

/** What the dry run said it would send. */
interface Rendered {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly variablesUsed: readonly string[];
}

/** The sample variables as an object, or the reason they are not one. */
export function parseVariables(text: string): { value: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `Sample variables are not JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'Sample variables must be a JSON object, such as {"name": "Ada"}.' };
  return { value: value as Record<string, unknown> };
}

/** The rendered subject, HTML (in a sandboxed frame) and text of `html` and `subject` with `variables`. */
export function TemplatePreview(props: { subject: string; html: string; variables: string }) {
  const [rendered, setRendered] = useState<Rendered>();
  const [error, setError] = useState<Error>();
  const [pending, setPending] = useState(false);
  const generation = useRef(0);
  const parsed = parseVariables(props.variables);
  const problem = 'problem' in parsed ? parsed.problem : undefined;
  const blank = props.html.trim() === '';

  useEffect(() => {
    if (problem || blank) return undefined;
    const data = 'value' in parsed ? parsed.value : {};
    const mine = ++generation.current;
    setPending(true);
    const timer = setTimeout(() => {
      unwrap(
        api.POST('/send-email', {
          body: { recipient: PREVIEW_ADDRESS, sender: PREVIEW_ADDRESS, subject: props.subject.trim() || undefined, html: props.html, data, dry_run: true },
        }),
      ).then(
        (answer) => {
          // A newer edit started its own call: this answer is stale.
          if (mine !== generation.current) return;
          if (!('dry_run' in answer)) throw new Error('The API did not answer with a dry run');
          const w = answer.would_send;
          setRendered({ subject: w.subject, html: w.html_preview, text: w.text_preview, variablesUsed: w.variables_used });
          setError(undefined);
          setPending(false);
        },
        (e: Error) => {
          if (mine !== generation.current) return;
          setError(e);
          setPending(false);
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // The parsed variables change exactly when their text does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.subject, props.html, props.variables, problem, blank]);

  return (
    <Card title="Preview" class="preview-card" actions={<span class="muted small-text" role="status">{pending ? 'Rendering…' : rendered ? 'Up to date' : ''}</span>}>
      {problem ? (
        <p class="notice warning" role="alert">
          {problem}
        </p>
      ) : null}
      {blank ? <p class="muted">Write some HTML to see it rendered.</p> : null}
      <ErrorNote error={error} title="The API could not render it" />
      {rendered ? (
        <>
          <dl class="details preview-meta">
            <div>
              <dt>Subject</dt>
              <dd data-testid="preview-subject">{rendered.subject}</dd>
            </div>
            <div>
              <dt>Variables used</dt>
              <dd>{rendered.variablesUsed.length > 0 ? rendered.variablesUsed.join(', ') : 'none'}</dd>
            </div>
          </dl>
          <p class="hint">A variable without a sample value shows as its own {'{{placeholder}}'}.</p>
          <iframe class="mail-preview" sandbox="" srcdoc={rendered.html} title="Rendered HTML of the template" />
          <h3 class="preview-text-title">Text part</h3>
          <pre class="preview-text" data-testid="preview-text">{rendered.text}</pre>
        </>
      ) : null}
    </Card>
  );
}
