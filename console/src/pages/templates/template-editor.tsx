/** A template's editor: its fields, sample variables, a live preview from the API's dry run, save and delete. */
import { useLayoutEffect, useState } from 'preact/hooks';
import { Button, Card, ErrorNote, Field, Loading, Notice, PageHeader } from '../../components/ui';
import { api, ApiError, unwrap, type Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';
import { href, navigate } from '../../lib/router';
import { useLoad } from '../../lib/use-load';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TemplatePreview } from './template-preview';

/** The editable fields of a template. */
interface Draft {
  name: string;
  subject: string;
  preheader: string;
  description: string;
  html: string;
}

const EMPTY: Draft = { name: '', subject: '', preheader: '', description: '', html: '<p>Hello {{name}},</p>\n<p>…</p>' };
const SAMPLE_VARIABLES = '{\n  "name": "Ada"\n}';

/** The draft of a stored template. */
function draftOf(t: Schemas['Template']): Draft {
  return { name: t.name, subject: t.subject ?? '', preheader: t.preheader ?? '', description: t.description ?? '', html: t.html };
}

/** The editor of `id`, or of a new template when `id` is undefined. */
export function TemplateEditor(props: { id?: string }) {
  const { id } = props;
  const loaded = useLoad(() => (id ? unwrap(api.GET('/v1/templates/{id}', { params: { path: { id } } })).then((a) => a.data) : Promise.resolve(undefined)), [id]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [variables, setVariables] = useState(SAMPLE_VARIABLES);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<Error>();
  const [saved, setSaved] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<ApiError>();

  // A layout effect, so the loaded fields are in the form in the same task that first shows it:
  // typing that starts once the heading shows can never be overwritten (and appended to) by the load.
  useLayoutEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);

  const set = (field: keyof Draft) => (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
    const value = event.currentTarget.value;
    setDraft((d) => ({ ...d, [field]: value }));
    setSaved(undefined);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setSaveError(undefined);
    setSaved(undefined);
    // Blank optional texts are cleared (null), as the API takes them.
    const body = { name: draft.name, html: draft.html, subject: draft.subject || null, preheader: draft.preheader || null, description: draft.description || null };
    try {
      if (id) {
        const updated = await unwrap(api.PUT('/v1/templates/{id}', { params: { path: { id } }, body }));
        setSaved(`Saved: version ${updated.data.version}.`);
        loaded.reload();
      } else {
        const created = await unwrap(api.POST('/v1/templates', { body }));
        navigate(href(['templates', created.data.id]));
      }
    } catch (e) {
      setSaveError(e as Error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!id) return;
    setDeleting(true);
    setDeleteError(undefined);
    try {
      await unwrap(api.DELETE('/v1/templates/{id}', { params: { path: { id }, query: {} } }));
      setConfirming(false);
      navigate(href(['templates']));
    } catch (e) {
      setConfirming(false);
      setDeleteError(e instanceof ApiError ? e : new ApiError(0, (e as Error).message));
    } finally {
      setDeleting(false);
    }
  };

  if (id && loaded.error) {
    return (
      <>
        <PageHeader title="Template" subtitle={<a href={href(['templates'])}>All templates</a>} />
        <ErrorNote error={loaded.error} />
      </>
    );
  }
  if (id && !loaded.data) return <Loading />;
  const template = loaded.data;

  return (
    <>
      <PageHeader
        title={template ? `Template: ${template.name}` : 'New template'}
        subtitle={
          <>
            <a href={href(['templates'])}>All templates</a>
            {template ? ` · id ${template.internal_id} · version ${template.version} · updated ${formatInstant(template.updated_at)}` : null}
          </>
        }
        actions={
          template ? (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete template
            </Button>
          ) : null
        }
      />
      {deleteError ? <DeleteRefused error={deleteError} /> : null}
      <div class="editor-grid">
        <form class="card" onSubmit={save} aria-label="Template">
          <h2>Content</h2>
          <Field label="Name" id="tpl-name">
            <input id="tpl-name" required value={draft.name} onInput={set('name')} />
          </Field>
          <Field label="Subject" id="tpl-subject" hint="Handlebars: {{name}} takes the send's variable.">
            <input id="tpl-subject" value={draft.subject} aria-describedby="tpl-subject-hint" onInput={set('subject')} />
          </Field>
          <Field label="Preheader" id="tpl-preheader">
            <input id="tpl-preheader" value={draft.preheader} onInput={set('preheader')} />
          </Field>
          <Field label="Description" id="tpl-description">
            <input id="tpl-description" value={draft.description} onInput={set('description')} />
          </Field>
          <Field label="HTML" id="tpl-html">
            <textarea id="tpl-html" class="code-area" required spellcheck={false} value={draft.html} onInput={set('html')} />
          </Field>
          <ErrorNote error={saveError} title="Not saved" />
          {saved ? <Notice kind="success">{saved}</Notice> : null}
          <Button type="submit" variant="primary" busy={saving}>
            {template ? 'Save changes' : 'Create template'}
          </Button>
        </form>
        <div>
          <Card title="Sample variables">
            <Field label="Variables (JSON object)" id="tpl-variables" hint="Only for the preview: a send gives its own.">
              <textarea id="tpl-variables" class="code-area short" spellcheck={false} value={variables} aria-describedby="tpl-variables-hint" onInput={(e) => setVariables(e.currentTarget.value)} />
            </Field>
          </Card>
          <TemplatePreview subject={draft.subject} html={draft.html} variables={variables} />
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete this template?"
        confirmLabel="Delete template"
        cancelLabel="Keep it"
        busy={deleting}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>
          “{template?.name}” is deleted for good. The API refuses while a campaign or an automation step uses it.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The API's refusal of a delete: its status and message, and the campaigns that use the template. */
function DeleteRefused(props: { error: ApiError }) {
  const body = props.error.body as { campaigns?: unknown; automation_nodes?: unknown } | undefined;
  const campaigns = Array.isArray(body?.campaigns) ? body.campaigns.filter((c): c is string => typeof c === 'string') : [];
  const nodes = Array.isArray(body?.automation_nodes) ? body.automation_nodes.length : 0;
  return (
    <div class="notice error" role="alert">
      <strong>Not deleted ({props.error.status || 'no answer'}): </strong>
      {props.error.message}
      {props.error.code ? <code class="code-tag">{props.error.code}</code> : null}
      {campaigns.length > 0 ? (
        <p class="refusal-list">
          Used by{' '}
          {campaigns.map((c, i) => (
            <span key={c}>
              {i > 0 ? ', ' : ''}
              <a href={href(['campaigns', c])}>campaign {c.slice(0, 8)}</a>
            </span>
          ))}
          {nodes > 0 ? ` and ${nodes} automation step(s)` : ''}.
        </p>
      ) : null}
    </div>
  );
}
