/** The project's webhook URLs: per slot (live, dev) and per custom environment, read and changed through /v1/project. */
import { useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Loading, Notice } from '../../components/ui';
import { api, unwrap, type paths, type Schemas } from '../../lib/api';
import type { ProjectSession } from '../../lib/session';
import { useLoad } from '../../lib/use-load';

type Project = Schemas['PartnerProject'];
type ProjectPatch = NonNullable<paths['/v1/project']['patch']['requestBody']>['content']['application/json'];
const SLOT_FIELDS = ['webhook_url', 'webhook_url_dev', 'inbound_webhook_url', 'inbound_webhook_url_dev'] as const;
type SlotField = (typeof SLOT_FIELDS)[number];

const LABELS: Record<SlotField, { label: string; hint: string }> = {
  webhook_url: { label: 'Live URL', hint: 'Events of live sends (slot live).' },
  webhook_url_dev: { label: 'Dev URL', hint: 'Events of test sends (slot dev).' },
  inbound_webhook_url: { label: 'Live override URL', hint: 'When set, replaces the live URL and receives every live event, replies included.' },
  inbound_webhook_url_dev: { label: 'Dev override URL', hint: 'When set, replaces the dev URL and receives every dev event, replies included.' },
};

interface EnvRow {
  readonly key: number;
  name: string;
  url: string;
}

let rowKeys = 0;
const rowsOf = (envs: Record<string, string>): EnvRow[] => Object.entries(envs).map(([name, url]) => ({ key: ++rowKeys, name, url }));

/** The URLs form; a test key sees them read-only, since the API takes changes from the live key only. */
export function WebhookUrls(props: { session: ProjectSession }) {
  const project = useLoad(() => unwrap(api.GET('/v1/project')), []);
  const readOnly = props.session.mode === 'test';
  return (
    <Card title="Webhook URLs">
      <ErrorNote error={project.error} title="The project's settings could not be read" />
      {project.loading && !project.data ? <Loading label="Loading the settings…" /> : null}
      {project.data ? <UrlsForm project={project.data.project} readOnly={readOnly} /> : null}
    </Card>
  );
}

function UrlsForm(props: { project: Project; readOnly: boolean }) {
  const [saved, setSaved] = useState(props.project);
  const [urls, setUrls] = useState<Record<SlotField, string>>(() => Object.fromEntries(SLOT_FIELDS.map((f) => [f, props.project[f] ?? ''])) as Record<SlotField, string>);
  const [envs, setEnvs] = useState<EnvRow[]>(() => rowsOf(props.project.inbound_webhook_environments));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [done, setDone] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // Only the changed fields are sent: the API changes what it is given, and an empty URL clears one.
      const body: ProjectPatch = {};
      for (const f of SLOT_FIELDS) if (urls[f].trim() !== (saved[f] ?? '')) body[f] = urls[f].trim() || null;
      const nextEnvs = Object.fromEntries(envs.filter((r) => r.name.trim() || r.url.trim()).map((r) => [r.name.trim(), r.url.trim()]));
      if (JSON.stringify(nextEnvs) !== JSON.stringify(saved.inbound_webhook_environments)) body.inbound_webhook_environments = Object.keys(nextEnvs).length ? nextEnvs : null;
      if (Object.keys(body).length === 0) {
        setDone(true);
        return;
      }
      const answer = await unwrap(api.PATCH('/v1/project', { body }));
      setSaved(answer.project);
      setDone(true);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  const setEnv = (key: number, change: Partial<EnvRow>) => {
    setDone(false);
    setEnvs((rows) => rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };
  return (
    <form onSubmit={submit} aria-label="Webhook URLs">
      {props.readOnly ? (
        <Notice kind="warning">Signed in with a test key: these settings are live configuration, so only the live key can change them.</Notice>
      ) : null}
      <div class="form-row">
        {SLOT_FIELDS.map((f) => (
          <Field key={f} label={LABELS[f].label} id={`webhook-${f}`} hint={LABELS[f].hint}>
            <input
              id={`webhook-${f}`}
              name={f}
              type="url"
              inputMode="url"
              placeholder="https://"
              autoComplete="off"
              spellcheck={false}
              readOnly={props.readOnly}
              value={urls[f]}
              aria-describedby={`webhook-${f}-hint`}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setDone(false);
                setUrls((u) => ({ ...u, [f]: value }));
              }}
            />
          </Field>
        ))}
      </div>
      <fieldset class="environments">
        <legend>Environments</legend>
        <p class="hint">A send with <code>environment: "name"</code> posts its events to that environment's URL instead.</p>
        {envs.length === 0 ? <p class="muted">No environment.</p> : null}
        {envs.map((row, i) => (
          <div class="env-row" key={row.key}>
            <Field label={`Environment ${i + 1} name`} id={`env-name-${row.key}`}>
              <input id={`env-name-${row.key}`} value={row.name} readOnly={props.readOnly} autoComplete="off" spellcheck={false} onInput={(e) => setEnv(row.key, { name: e.currentTarget.value })} />
            </Field>
            <Field label={`Environment ${i + 1} URL`} id={`env-url-${row.key}`}>
              <input id={`env-url-${row.key}`} type="url" value={row.url} readOnly={props.readOnly} placeholder="https://" autoComplete="off" spellcheck={false} onInput={(e) => setEnv(row.key, { url: e.currentTarget.value })} />
            </Field>
            {props.readOnly ? null : (
              <Button class="small" aria-label={`Remove environment ${row.name || i + 1}`} onClick={() => setEnvs((rows) => rows.filter((r) => r.key !== row.key))}>
                Remove
              </Button>
            )}
          </div>
        ))}
        {props.readOnly ? null : (
          <Button class="small" onClick={() => setEnvs((rows) => [...rows, { key: ++rowKeys, name: '', url: '' }])}>
            Add an environment
          </Button>
        )}
      </fieldset>
      <ErrorNote error={error} title="The URLs were not saved" />
      {done && !error ? <Notice kind="success">Saved.</Notice> : null}
      {props.readOnly ? null : (
        <Button type="submit" variant="primary" busy={busy}>
          Save URLs
        </Button>
      )}
    </form>
  );
}
