/** A project's key rotation and its disable / reactivate, each confirmed first. */
import { useState } from 'preact/hooks';
import { Button, Card, CopyButton, ErrorNote, Field, Notice } from '../../components/ui';
import { api, unwrap, type Schemas } from '../../lib/api';
import { ConfirmDialog } from '../../components/confirm-dialog';

type Project = Schemas['PartnerProject'];
type Asking = 'rotate' | 'disable' | 'reactivate' | undefined;

/** The key and status actions of a project; `onChanged` reloads it. */
export function ProjectActions({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [asking, setAsking] = useState<Asking>();
  const [busy, setBusy] = useState<Asking>();
  const [error, setError] = useState<Error>();
  const [rotated, setRotated] = useState<Schemas['PartnerKeyRotated']>();
  const [done, setDone] = useState<string>();
  const path = { params: { path: { projectId: project.id } } };

  const run = async (action: Exclude<Asking, undefined>) => {
    setBusy(action);
    setError(undefined);
    setDone(undefined);
    try {
      if (action === 'rotate') {
        setRotated(await unwrap(api.POST('/v1/partner/projects/{projectId}/api-key/rotate', { ...path, body: { mode } })));
      } else if (action === 'disable') {
        await unwrap(api.DELETE('/v1/partner/projects/{projectId}', path));
        setDone('The project is disabled: it no longer sends.');
        onChanged();
      } else {
        await unwrap(api.POST('/v1/partner/projects/{projectId}/reactivate', path));
        setDone('The project is active again.');
        onChanged();
      }
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(undefined);
    }
  };

  const close = (confirmed: boolean) => {
    const action = asking;
    setAsking(undefined);
    if (confirmed && action) void run(action);
  };

  return (
    <>
      <Card title="API key">
        <p>A new key replaces the project's {mode} key: the old one is refused at once, and consoles signed in with it are signed out.</p>
        <div class="filters">
          <Field label="Key to rotate" id="rotate-mode">
            <select id="rotate-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as 'live' | 'test')}>
              <option value="live">Live key</option>
              <option value="test">Test key</option>
            </select>
          </Field>
          <Button variant="danger" busy={busy === 'rotate'} onClick={() => setAsking('rotate')}>
            Rotate the key
          </Button>
        </div>
        {rotated ? (
          <div class="notice warning new-key" role="status">
            <p>
              <strong>The new {rotated.mode} key. Copy it now: it will not be shown again.</strong>
            </p>
            <div class="inline">
              <code class="secret">{rotated.api_key}</code>
              <CopyButton text={rotated.api_key} label="Copy the key" />
            </div>
          </div>
        ) : null}
      </Card>
      <Card title="Status">
        {project.disabled_at ? (
          <>
            <p>The project is disabled: it cannot send. Its keys still read its data.</p>
            <Button variant="primary" busy={busy === 'reactivate'} onClick={() => setAsking('reactivate')}>
              Reactivate the project
            </Button>
          </>
        ) : (
          <>
            <p>Disabling stops the project's sending; nothing is deleted, and it can be reactivated.</p>
            <Button variant="danger" busy={busy === 'disable'} onClick={() => setAsking('disable')}>
              Disable the project
            </Button>
          </>
        )}
        {done ? <Notice kind="success">{done}</Notice> : null}
      </Card>
      <ErrorNote error={error} title="The action failed" />
      <ConfirmDialog
        open={asking !== undefined}
        title={asking === 'rotate' ? `Rotate the ${mode} key of ${project.name}?` : asking === 'disable' ? `Disable ${project.name}?` : `Reactivate ${project.name}?`}
        confirmLabel={asking === 'rotate' ? 'Rotate' : asking === 'disable' ? 'Disable' : 'Reactivate'}
        variant={asking === 'reactivate' ? 'primary' : 'danger'}
        onConfirm={() => close(true)}
        onCancel={() => close(false)}
      >
        {asking === 'rotate' ? (
          <p>The current {mode} key stops working at once: every program and console using it is refused until it is given the new key.</p>
        ) : asking === 'disable' ? (
          <p>The project stops sending. Nothing is deleted; you can reactivate it later.</p>
        ) : (
          <p>The project sends again, and counts against the organization's quota.</p>
        )}
      </ConfirmDialog>
    </>
  );
}
