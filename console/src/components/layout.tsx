/** The frame of every signed-in page: the header (who is signed in, the mode), the navigation, the content. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Session } from '../lib/session';

/** One entry of the navigation. */
export interface NavItem {
  readonly path: string;
  readonly label: string;
}

/** The header, the navigation and the page; `current` is the route's first segment. */
export function Layout(props: { session: Session; nav: readonly NavItem[]; current: string; onSignOut: () => void; children: ComponentChildren }) {
  const { session } = props;
  const nav = useRef<HTMLElement>(null);
  // On a phone the navigation is one scrolling row: keep the current page's entry in sight.
  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [props.current]);
  const who = session.kind === 'project' ? session.project.name : (session.organization.name ?? 'Partner organization');
  return (
    <div class="frame">
      {/* The hash is the router's: followed, `#main` would be a route (the first page). The link moves the focus itself. */}
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Mailroom</span>
        <span class="who" title={who}>
          {who}
        </span>
        {session.kind === 'project' ? (
          <span class={`badge ${session.mode === 'test' ? 'warn' : 'good'}`}>{session.mode === 'test' ? 'Test key' : 'Live'}</span>
        ) : (
          <span class="badge neutral">Partner</span>
        )}
        <button type="button" class="btn plain small signout" onClick={props.onSignOut}>
          Sign out
        </button>
      </header>
      {session.kind === 'project' && session.mode === 'test' ? (
        <div class="test-banner" role="note">
          Test key: you see test mail only. Mail sent with this key is real mail, counted in the quota, hidden from the live view.
        </div>
      ) : null}
      <nav class="sidenav" aria-label="Console" ref={nav}>
        <ul>
          {props.nav.map((item) => (
            <li key={item.path}>
              <a href={`#/${item.path}`} aria-current={props.current === item.path ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
