/** The console's small building blocks: headings, notices, badges, buttons, fields. */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A page's title, with actions on its right. */
export function PageHeader(props: { title: string; subtitle?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.subtitle ? <p class="muted">{props.subtitle}</p> : null}
      </div>
      {props.actions ? <div class="actions">{props.actions}</div> : null}
    </header>
  );
}

/** An error the API gave, in words a person reads; announced to screen readers. */
export function ErrorNote(props: { error: Error | undefined; title?: string }) {
  if (!props.error) return null;
  const code = (props.error as { code?: string }).code;
  return (
    <div class="notice error" role="alert">
      {props.title ? <strong>{props.title}: </strong> : null}
      {props.error.message}
      {code ? <code class="code-tag">{code}</code> : null}
    </div>
  );
}

/** A note (success, information), announced politely. */
export function Notice(props: { kind?: 'info' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind ?? 'info'}`} role="status">
      {props.children}
    </div>
  );
}

/** A loading placeholder that screen readers announce. */
export function Loading(props: { label?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {props.label ?? 'Loading…'}
    </p>
  );
}

const TONES: Record<string, string> = {
  delivered: 'good', verified: 'good', active: 'good', completed: 'good', sent: 'good', success: 'good', healthy: 'good', subscribed: 'good',
  opened: 'good', clicked: 'good',
  queued: 'neutral', scheduled: 'neutral', pending: 'neutral', draft: 'neutral', processing: 'neutral', running: 'neutral', sending: 'neutral', not_started: 'neutral',
  paused: 'warn', delayed: 'warn', temporary_failure: 'warn', warning: 'warn', test: 'warn', partial: 'warn', unsubscribed: 'warn',
  bounced: 'bad', complained: 'bad', failed: 'bad', rejected: 'bad', cancelled: 'bad', canceled: 'bad', suppressed: 'bad', disabled: 'bad', error: 'bad', not_found: 'bad',
};

/** A status word in a colour that says how it went (the word itself always shows, for colour-blind readers). */
export function Badge(props: { value: string | null | undefined; tone?: 'good' | 'bad' | 'warn' | 'neutral' }) {
  const value = props.value ?? 'none';
  const tone = props.tone ?? TONES[value.toLowerCase()] ?? 'neutral';
  return <span class={`badge ${tone}`}>{value.replace(/_/g, ' ')}</span>;
}

/** A button; `busy` disables it and says so. */
export function Button(props: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; variant?: 'primary' | 'danger' | 'plain' }) {
  const { busy, variant = 'plain', children, class: cls, disabled, type, ...rest } = props;
  return (
    <button {...rest} type={(type as 'button' | 'submit' | undefined) ?? 'button'} class={`btn ${variant} ${cls ?? ''}`} disabled={Boolean(disabled) || busy} aria-busy={busy ? 'true' : undefined}>
      {children}
    </button>
  );
}

/** A labelled form field wrapping one control; the hint is tied to the control for screen readers. */
export function Field(props: { label: string; id: string; hint?: ComponentChildren; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled filter choosing one of `options` or none (`anyLabel`): the lists' status, state and outcome filters. */
export function SelectFilter(props: { label: string; id: string; value: string; anyLabel: string; options: readonly string[]; optionLabel?: (option: string) => string; onChange: (value: string) => void }) {
  return (
    <Field label={props.label} id={props.id}>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.anyLabel}</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.optionLabel ? props.optionLabel(option) : option}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Copies `text` to the clipboard, and says it did. */
export function CopyButton(props: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
    } catch {
      // Clipboard refused (an insecure origin, a denied permission): select the text for a manual copy.
      const area = document.createElement('textarea');
      area.value = props.text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" class="btn plain small" onClick={copy} aria-label={`${props.label ?? 'Copy'}: ${props.text}`}>
      {done ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

/** A card: a titled block of a page. */
export function Card(props: { title?: string; children: ComponentChildren; actions?: ComponentChildren; class?: string }) {
  return (
    <section class={`card ${props.class ?? ''}`} aria-label={props.title}>
      {props.title || props.actions ? (
        <div class="card-head">
          {props.title ? <h2>{props.title}</h2> : <span />}
          {props.actions}
        </div>
      ) : null}
      {props.children}
    </section>
  );
}

/** Terms and their values (a record's detail). */
export function Details(props: { items: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="details">
      {props.items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
