/** Creating or editing an automation: its name and its definition as JSON, checked for syntax here and for everything else by the API. */
import { useLayoutEffect, useState } from 'preact/hooks';
import { Button, ErrorNote, Field, Loading, Notice, PageHeader } from '../../components/ui';
import { api, ApiError, unwrap, type paths } from '../../lib/api';
import { href, navigate } from '../../lib/router';
import type { ProjectSession } from '../../lib/session';
import { useLoad } from '../../lib/use-load';
import type { Automation } from './automation-words';
import { WELCOME_SERIES, WELCOME_SERIES_NAME } from './welcome-example';

type AutomationBody = paths['/v1/automations']['post']['requestBody']['content']['application/json'];

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

// The order of a definition's keys as the docs write them: the API answers a stored definition's
// keys in the store's order, which reads badly in an editor.
const KEY_ORDER = [
  'id', 'name', 'type', 'event', 'conditions', 'tag', 'segment_id', 'attribute', 'offset_days', 'at', 'yearly', 'filter', 'reentry', 'reentry_days',
  'template_id', 'sender_profile_id', 'subject', 'email_type', 'duration', 'time', 'timezone_attribute', 'weekdays', 'timeout', 'condition',
  'add_tags', 'remove_tags', 'set_attributes', 'add_segment_ids', 'remove_segment_ids', 'webhook_id', 'next', 'yes', 'no', 'on_event', 'on_timeout',
];

/** An object with its keys in KEY_ORDER (keys it does not list last, as they came); user data (filters, attributes) is left as it is. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null) return value;
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(keys.map((k) => [k, k === 'filter' || k === 'set_attributes' || k === 'condition' ? (value as Record<string, unknown>)[k] : ordered((value as Record<string, unknown>)[k])]));
}

/** The definition of a stored automation, as the editor shows it. */
function definitionOf(a: Automation): string {
  return pretty({ trigger: ordered(a.trigger), entry: ordered(a.entry), exit: ordered(a.exit), steps: ordered(a.steps) });
}

/** The definition's text parsed, or what is wrong with its syntax (the API checks the rest and names the field). */
export function parseDefinition(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `The definition is not JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'The definition must be a JSON object: {"trigger": ..., "steps": [...]}.' };
  if ('name' in value) return { problem: 'The name goes in the Name field, not in the definition.' };
  return { value: value as Record<string, unknown> };
}

/** What a save did, in words: a draft replaced in place, or the version it made. */
function savedWords(before: Automation, after: Automation): string {
  if (after.version === before.version) return `Saved: the draft's version ${after.version} is replaced in place.`;
  if (after.status === 'active') return `Saved: this made version ${after.version}, active now. New entries start on it; runs in flight finish on the version they started on.`;
  return `Saved: this made version ${after.version}. It is checked when the automation is activated again.`;
}

/** The editor of automation `id`, or of a new one (prefilled with the welcome series) when `id` is undefined. */
export function AutomationEditor(props: { id?: string; session: ProjectSession }) {
  const { id } = props;
  const loaded = useLoad(() => (id ? unwrap(api.GET('/v1/automations/{id}', { params: { path: { id } } })).then((a) => a.data) : Promise.resolve(undefined)), [id]);
  const [name, setName] = useState(id ? '' : WELCOME_SERIES_NAME);
  const [text, setText] = useState(id ? '' : pretty(WELCOME_SERIES));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<Error>();
  const [saved, setSaved] = useState<string>();

  // A layout effect, so the stored definition is in the form in the same task that first shows it.
  useLayoutEffect(() => {
    if (loaded.data) {
      setName(loaded.data.name);
      setText(definitionOf(loaded.data));
    }
  }, [loaded.data]);

  const parsed = parseDefinition(text);
  const problem = 'problem' in parsed ? parsed.problem : undefined;
  const automation = loaded.data;

  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setSaved(undefined);
    if ('problem' in parsed) {
      setError(new Error(parsed.problem));
      return;
    }
    // The shape past the syntax is the API's to check: its 400 names the field.
    const body = { ...parsed.value, name } as unknown as AutomationBody;
    setSaving(true);
    try {
      if (id && automation) {
        const answer = await unwrap(api.PUT('/v1/automations/{id}', { params: { path: { id } }, body }));
        setSaved(savedWords(automation, answer.data));
        loaded.reload();
      } else {
        const created = await unwrap(api.POST('/v1/automations', { body }));
        navigate(href(['automations', created.data.id]));
      }
    } catch (e) {
      setError(e as Error);
    } finally {
      setSaving(false);
    }
  };

  const title = id ? `Edit: ${automation?.name ?? 'automation'}` : 'New automation';
  if (id && loaded.error && !automation) {
    return (
      <>
        <PageHeader title="Edit automation" subtitle={<a href={href(['automations'])}>All automations</a>} />
        <ErrorNote error={loaded.error} />
      </>
    );
  }
  if (id && !automation) return <Loading />;
  const refusedStep = error instanceof ApiError && error.code === 'AUTOMATION_INVALID' ? (error.body as { step?: string | null } | undefined)?.step : undefined;

  return (
    <>
      <PageHeader
        title={title}
        subtitle={
          <>
            <a href={href(['automations'])}>All automations</a>
            {id ? (
              <>
                {' · '}
                <a href={href(['automations', id])}>Back to its flow</a> · {automation?.status}, version {automation?.version}
              </>
            ) : null}
          </>
        }
      />
      {props.session.mode === 'test' ? <Notice kind="warning">Signed in with a test key: this automation belongs to the project's test mode.</Notice> : null}
      {automation?.status === 'active' ? (
        <Notice kind="info">This automation is active: saving checks the new definition as activation does, and makes a new version.</Notice>
      ) : null}
      {!id ? (
        <Notice kind="info">
          This is the welcome series of the documentation. Its template and sender ids name nothing in your project: put your own (see Templates and Domains) before
          activating it; until then, activation refuses it and names the step.
        </Notice>
      ) : null}
      <form class="card automation-form" aria-label={id ? 'Edit automation' : 'New automation'} onSubmit={save}>
        <Field label="Name" id="automation-name">
          <input id="automation-name" required maxLength={200} value={name} onInput={(e) => {
              setName(e.currentTarget.value);
              setSaved(undefined);
            }} />
        </Field>
        <Field
          label="Definition (JSON)"
          id="automation-definition"
          hint={
            <>
              <code>trigger</code>, <code>entry</code>, <code>exit</code> and <code>steps</code>, as docs/automations.md describes them. The run starts at the first step.
            </>
          }
        >
          <textarea
            id="automation-definition"
            class="code-area automation-json"
            spellcheck={false}
            autocomplete="off"
            aria-describedby={`automation-definition-hint${problem ? ' automation-definition-problem' : ''}`}
            aria-invalid={problem ? 'true' : undefined}
            value={text}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setSaved(undefined);
            }}
          />
        </Field>
        <p id="automation-definition-problem" class={problem ? 'json-check bad' : 'json-check good'} role="status">
          {problem ?? 'The definition is well-formed JSON.'}
        </p>
        {error ? (
          <div class="notice error" role="alert">
            <strong>Not saved: </strong>
            {error.message}
            {error instanceof ApiError && error.code ? <code class="code-tag">{error.code}</code> : null}
            {id && refusedStep ? (
              <>
                {' '}
                <a href={href(['automations', id], { step: refusedStep })}>
                  See step <code>{refusedStep}</code> in the flow
                </a>
              </>
            ) : null}
          </div>
        ) : null}
        {saved ? <Notice kind="success">{saved}</Notice> : null}
        <div class="actions">
          <Button type="submit" variant="primary" busy={saving} disabled={Boolean(problem)}>
            {id ? 'Save changes' : 'Create automation'}
          </Button>
          {id ? (
            <a class="btn" href={href(['automations', id])}>
              Cancel
            </a>
          ) : null}
        </div>
      </form>
    </>
  );
}
