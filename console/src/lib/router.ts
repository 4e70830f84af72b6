/**
 * Hash routing (`#/activity/<id>?status=bounced`): the server serves one page at /console, so a
 * deep link or a reload needs no server route per view, and the history works as in any site.
 */
import { useEffect, useState } from 'preact/hooks';

/** The view a hash names: its path segments and its query. */
export interface Route {
  readonly path: string;
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
}

/** The route of a hash (`#/a/b?x=1`). */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = raw.split('?', 2);
  const segments = pathPart.split('/').filter(Boolean).map(decodeURIComponent);
  return { path: `/${segments.join('/')}`, segments, query: new URLSearchParams(queryPart) };
}

/** The href of a view: path segments (escaped) and an optional query. */
export function href(segments: readonly string[], query?: Record<string, string | undefined>): string {
  const path = segments.map(encodeURIComponent).join('/');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, v);
  const qs = params.toString();
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

/** Goes to a view (adds a history entry). */
export function navigate(to: string): void {
  location.hash = to.replace(/^#/, '');
}

/** Replaces the current view's query without a history entry (filters, page cursors). */
export function replaceQuery(query: Record<string, string | undefined>): void {
  const { segments } = parseHash(location.hash);
  history.replaceState(null, '', href(segments, query));
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** The current route, re-rendered on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
