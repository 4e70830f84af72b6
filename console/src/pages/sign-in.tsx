/** Signing in: a project or partner key, exchanged for a session cookie the page's script never sees. */
import { useState } from 'preact/hooks';
import { Button, Field } from '../components/ui';
import { signIn, type Session } from '../lib/session';

/** The sign-in form; `onSignedIn` receives the new session. */
export function SignIn(props: { onSignedIn: (session: Session) => void; reason?: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(key.trim());
      // The key leaves the page's memory: only the HttpOnly cookie carries the session from here on.
      setKey('');
      props.onSignedIn(session);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <form onSubmit={submit} aria-labelledby="signin-title" class="card">
        <h1 id="signin-title">Sign in to Mailroom</h1>
        <p class="muted">With a project key (sk_live_, sk_proj_ or sk_test_) to operate one project, or a partner key (sk_partner_) to see your organization's projects.</p>
        {props.reason ? <p class="notice info" role="status">{props.reason}</p> : null}
        <Field label="API key" id="api-key" hint="Exchanged for a session of 8 hours; the key is not kept in this browser.">
          <input id="api-key" name="api_key" type="password" autoComplete="off" spellcheck={false} required value={key} aria-describedby="api-key-hint" onInput={(e) => setKey(e.currentTarget.value)} />
        </Field>
        {error ? (
          <p class="notice error" role="alert">
            {error}
          </p>
        ) : null}
        <Button type="submit" variant="primary" busy={busy}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
