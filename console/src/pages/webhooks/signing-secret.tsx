/** The signing secret of the signed-in key's slot: hidden until asked for, and rotated after a confirmation. */
import { useState } from 'preact/hooks';
import { Button, Card, CopyButton, ErrorNote, Notice } from '../../components/ui';
import { api, unwrap } from '../../lib/api';
import type { ProjectSession } from '../../lib/session';
import { ConfirmDialog } from '../../components/confirm-dialog';

/** Reveal, hide, copy and rotate the secret that signs the deliveries of this key's slot. */
export function SigningSecret(props: { session: ProjectSession }) {
  const slot = props.session.mode === 'test' ? 'dev' : 'live';
  const [secret, setSecret] = useState<string>();
  const [busy, setBusy] = useState<'reveal' | 'rotate'>();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<Error>();
  const [rotated, setRotated] = useState(false);

  const reveal = async () => {
    setBusy('reveal');
    setError(undefined);
    try {
      setSecret((await unwrap(api.GET('/v1/webhooks/secret'))).secret);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(undefined);
    }
  };
  const rotate = async () => {
    setBusy('rotate');
    setError(undefined);
    try {
      setSecret((await unwrap(api.POST('/v1/webhooks/secret/rotate'))).secret);
      setRotated(true);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(undefined);
      setAsking(false);
    }
  };
  return (
    <Card title="Signing secret">
      <p class="muted card-intro">
        Every delivery to the <strong>{slot}</strong> slot is signed with this secret (the <code>webhook-signature</code> header of Standard Webhooks, and <code>X-Svc-Signature</code>). Verify it before trusting a
        payload. {slot === 'live' ? 'The test key has a secret of its own, for the dev slot.' : 'The live key has a secret of its own, for the live slot.'}
      </p>
      <ErrorNote error={error} title="The secret could not be read or rotated" />
      {rotated ? <Notice kind="success">Rotated: deliveries signed from now on use the new secret below. Update your receivers.</Notice> : null}
      <div class="secret-row">
        <span class="visually-hidden" id="secret-label">
          Signing secret
        </span>
        <code class="secret" aria-labelledby="secret-label" data-testid="webhook-secret">
          {secret ?? '•'.repeat(24)}
        </code>
        <div class="actions">
          {secret ? (
            <>
              <CopyButton text={secret} label="Copy secret" />
              <Button class="small" onClick={() => setSecret(undefined)}>
                Hide
              </Button>
            </>
          ) : (
            <Button class="small" busy={busy === 'reveal'} onClick={reveal}>
              Reveal
            </Button>
          )}
          <Button class="small" variant="danger" onClick={() => setAsking(true)}>
            Rotate…
          </Button>
        </div>
      </div>
      <ConfirmDialog open={asking} title={`Rotate the ${slot} signing secret?`} confirmLabel="Rotate secret" busy={busy === 'rotate'} onConfirm={rotate} onCancel={() => setAsking(false)}>
        <p>The current secret stops signing at once: receivers that check signatures refuse deliveries until they have the new one.</p>
      </ConfirmDialog>
    </Card>
  );
}
