import { htmlPageHeaders, nonceSource } from '../../platform/pages/page-headers';
import { escapeHtml, pageLayout } from '../../platform/pages/page-layout';

/**
 * The public unsubscribe pages (`/u/{token}`) and the headers of the view-in-browser page
 * (`/v/{token}`). Every value reaching the HTML goes through escapeHtml; the only stylesheet is
 * static and carries a per-response nonce; there is no script at all.
 */

/** `reader@example.com` -> `r****r@example.com`: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  const masked = local.length <= 2 ? `${local[0]}*` : `${local[0]}${'*'.repeat(Math.min(local.length - 2, 6))}${local[local.length - 1]}`;
  return `${masked}${email.slice(at)}`;
}

/** Headers of the unsubscribe pages: its own nonced style, a form that posts only to itself, no script, no framing. */
export function linkPageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders({ 'style-src': nonceSource(nonce), 'form-action': "'self'" });
}

/**
 * Headers of the view-in-browser page: the mail's own HTML, so no script, no form, no plugin, no
 * framing; images and inline styles of the mail may load (https and data only).
 */
export function viewHeaders(): Record<string, string> {
  return htmlPageHeaders({
    'img-src': 'https: data:',
    'style-src': "'unsafe-inline' https:",
    'font-src': 'https: data:',
    'script-src': "'none'",
    'object-src': "'none'",
    sandbox: 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
  });
}

/** The confirmation page of GET /u/{token}: the masked address and a button posting to the same URL. */
export function renderUnsubscribePage(email: string, nonce: string): string {
  return layout(
    nonce,
    'Unsubscribe',
    `
    <h1>Unsubscribe</h1>
    <p>Stop receiving these emails at <strong>${escapeHtml(maskEmail(email))}</strong>?</p>
    <form method="post">
      <button type="submit">Unsubscribe</button>
    </form>`,
  );
}

/** The answer of POST /u/{token}. */
export function renderUnsubscribedPage(email: string, nonce: string): string {
  return layout(
    nonce,
    'You are unsubscribed',
    `
    <h1>You are unsubscribed</h1>
    <p><strong>${escapeHtml(maskEmail(email))}</strong> will no longer receive these emails.</p>`,
  );
}

/** The page of a token that is not valid (404). */
export function renderInvalidLinkPage(nonce: string): string {
  return layout(
    nonce,
    'Link not valid',
    `
    <h1>This link is not valid</h1>
    <p>The link may be mistyped or incomplete. Try the link in the email again.</p>`,
  );
}

/** The page shown when the page itself failed (500). */
export function renderLinkErrorPage(nonce: string): string {
  return layout(
    nonce,
    'Something went wrong',
    `
    <h1>Something went wrong</h1>
    <p>Please try again in a minute.</p>`,
  );
}

function layout(nonce: string, title: string, main: string): string {
  return pageLayout({ nonce, title, main, style: STYLE });
}

const STYLE = `
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fa; color: #1f2328; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 520px; margin: 48px auto; padding: 28px 32px; background: #fff; border: 1px solid #d1d9e0; border-radius: 10px; text-align: center; }
h1 { margin: 0 0 12px; font-size: 24px; }
strong { overflow-wrap: anywhere; }
button { font: inherit; cursor: pointer; padding: 8px 18px; color: #fff; background: #0969da; border: 1px solid #0969da; border-radius: 6px; font-weight: 600; }
button:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
@media (max-width: 560px) { main { margin: 0; border: 0; border-radius: 0; } }
`;
