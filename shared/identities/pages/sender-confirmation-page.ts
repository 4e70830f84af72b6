import { htmlPageHeaders, newNonce, nonceSource } from '../../platform/pages/page-headers';
import { escapeHtml, pageLayout } from '../../platform/pages/page-layout';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem}';

/** A page of the sender-confirmation link, with its headers (its own nonced style; the form posts to itself). */
function page(title: string, main: string): { headers: Record<string, string>; body: string } {
  const nonce = newNonce();
  const headers = htmlPageHeaders({ 'style-src': nonceSource(nonce), 'form-action': "'self'" });
  return { headers, body: pageLayout({ nonce, title, main, style: STYLE }) };
}

/**
 * The page a confirmation link opens. Confirming takes a click (a POST), so that mail scanners that
 * open every link cannot confirm on the owner's behalf.
 */
export function renderConfirmPage(email: string) {
  return page(
    'Confirm this sender',
    `<h1>Confirm ${escapeHtml(email)}</h1><p>A project asks to send email as this address. Confirm only if you expect it.</p>` +
      '<form method="post"><button type="submit">Confirm</button></form>',
  );
}

/** The page shown once the owner confirmed. */
export function renderConfirmedPage(email: string) {
  return page('Sender confirmed', `<h1>Confirmed</h1><p>${escapeHtml(email)} can now be used as a sender by the project that asked.</p>`);
}

/** The page of a link that is unknown, replaced by a newer request, or expired. */
export function renderInvalidLinkPage() {
  return page('Link not valid', '<h1>This confirmation link is not valid</h1><p>It may have expired or been replaced by a newer request.</p>');
}
