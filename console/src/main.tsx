/** The console's entry: the session decides between the sign-in form and the pages. */
import { render } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useState } from 'preact/hooks';
import './styles.css';
import { Layout } from './components/layout';
import { ErrorNote, Loading } from './components/ui';
import { onSignedOut } from './lib/api';
import { useRoute } from './lib/router';
import { currentSession, signOut, type Session } from './lib/session';
import { partnerPages, projectPages } from './pages';
import { SignIn } from './pages/sign-in';

function App() {
  const [session, setSession] = useState<Session | null>();
  const [reason, setReason] = useState<string>();
  const [error, setError] = useState<Error>();
  const route = useRoute();

  useEffect(() => {
    currentSession().then((s) => setSession(s ?? null), setError);
    // A 401 from any call: the session expired, was ended elsewhere, or its key was rotated or revoked.
    return onSignedOut(() => {
      setSession(null);
      setReason('Your session ended (it expired, or its key was rotated or revoked). Sign in again.');
    });
  }, []);

  const end = useCallback(async () => {
    await signOut();
    setReason(undefined);
    setSession(null);
    location.hash = '';
  }, []);

  // A layout effect: the focus moves in the same task that shows the new view, never later, when the
  // reader (or a test) may already have moved it on to a link of that view.
  useLayoutEffect(() => {
    // Each view takes the keyboard focus to its content, so a screen reader starts at the new page;
    // so does signing in or out (the form's button that had the focus is gone).
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [route.path, session?.kind]);

  if (error) return <ErrorNote error={error} title="The console could not start" />;
  if (session === undefined) return <Loading />;
  if (session === null) return <SignIn reason={reason} onSignedIn={(s) => { setReason(undefined); setSession(s); }} />;

  const pages = session.kind === 'project' ? projectPages : partnerPages;
  const first = route.segments[0] ?? pages[0].path;
  const page = pages.find((p) => p.path === first) ?? pages[0];
  const Page = page.component as (props: { route: typeof route; session: Session }) => preact.JSX.Element;
  document.title = `${page.label} · Mailroom`;
  return (
    <Layout session={session} nav={pages} current={page.path} onSignOut={end}>
      <Page route={route} session={session} />
    </Layout>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
