/** A project's settings, changed by `PATCH /v1/partner/projects/{id}` (only the fields changed are sent; an emptied one is cleared). */
import { useEffect, useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Notice } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';

type Project = Schemas['PartnerProject'];

const FIELDS = [
  { key: 'name', label: 'Name', type: 'text', hint: undefined },
  { key: 'timezone', label: 'Time zone', type: 'text', hint: 'An IANA name (Europe/Paris); empty: the default' },
  { key: 'country', label: 'Country', type: 'text', hint: 'Two letters (FR); empty: none' },
  { key: 'webhook_url', label: 'Webhook URL', type: 'url', hint: 'Where the live key\'s mail events go; empty: none' },
  { key: 'webhook_url_dev', label: 'Webhook URL (test key)', type: 'url', hint: 'Where the test key\'s mail events go' },
  { key: 'inbound_webhook_url', label: 'Inbound webhook URL', type: 'url', hint: 'Where received mail goes' },
  { key: 'inbound_webhook_url_dev', label: 'Inbound webhook URL (test key)', type: 'url', hint: undefined },
] as const;

type Key = (typeof FIELDS)[number]['key'];
type Values = Record<Key, string>;

const valuesOf = (p: Project): Values => Object.fromEntries(FIELDS.map((f) => [f.key, p[f.key] ?? ''])) as Values;

/** The settings form of a project; `onSaved` reloads the project. */
export function ProjectSettings({ project, onSaved }: { project: Project; onSaved: () => void }) {
  const [values, setValues] = useState(() => valuesOf(project));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const [saved, setSaved] = useState(false);
  useEffect(() => setValues(valuesOf(project)), [project]);

  const original = valuesOf(project);
  const changed = FIELDS.filter((f) => values[f.key].trim() !== original[f.key]);

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    // Only what changed; an emptied optional field is cleared with null.
    const body = Object.fromEntries(changed.map((f) => [f.key, f.key !== 'name' && values[f.key].trim() === '' ? null : values[f.key].trim()]));
    try {
      await unwrap(api.PATCH('/v1/partner/projects/{projectId}', { params: { path: { projectId: project.id } }, body }));
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Settings">
      <form onSubmit={save} class="settings-form">
        {FIELDS.map((f) => (
          <Field key={f.key} label={f.label} id={`project-${f.key}`} hint={f.hint}>
            <input
              id={`project-${f.key}`}
              type="text"
              inputMode={f.type === 'url' ? 'url' : undefined}
              spellcheck={false}
              value={values[f.key]}
              required={f.key === 'name'}
              aria-describedby={f.hint ? `project-${f.key}-hint` : undefined}
              onInput={(e) => {
                setSaved(false);
                setValues({ ...values, [f.key]: e.currentTarget.value });
              }}
            />
          </Field>
        ))}
        <ErrorNote error={error} title="Not saved" />
        {saved ? <Notice kind="success">Saved.</Notice> : null}
        <Button type="submit" variant="primary" busy={busy} disabled={changed.length === 0}>
          Save the settings
        </Button>
      </form>
    </Card>
  );
}
