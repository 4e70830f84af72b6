import { htmlPageHeaders, nonceSource } from '../../platform/pages/page-headers';
import { escapeHtml, pageLayout } from '../../platform/pages/page-layout';
import { VERIFICATION_SCRIPT, VERIFICATION_STYLE } from './verification-assets';
import { DOMAIN_STATUS_LABELS, RECORD_STATUS_LABELS, type PageView } from './verification-view';

/**
 * The HTML of the public domain verification page (`/verify/{token}`) and its headers. Every
 * value that reaches the HTML goes through escapeHtml; the one script and the one stylesheet are
 * static and carry a per-response nonce (the CSP allows nothing else), and the script talks only
 * to its own URL.
 */

/** Escaped text that may wrap after each dot (long host names); `<wbr>` adds nothing to copied text. */
function breakable(value: string): string {
  return escapeHtml(value).replace(/\./g, '.<wbr>');
}

/** Headers of the verification page: its own nonced script and style, calls to its own URL, nothing else. */
export function pageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders({ 'script-src': nonceSource(nonce), 'style-src': nonceSource(nonce), 'connect-src': "'self'" });
}

/** The verification page of one domain. */
export function renderVerificationPage(view: PageView, nonce: string): string {
  const e = escapeHtml;
  const rows = view.records
    .map((r) => {
      const relative = r.name === '@' ? '@ (the domain itself)' : r.name;
      return `
        <tr data-record="${e(recordKey(r))}">
          <td data-label="Type"><span class="type">${e(r.record_type)}</span></td>
          <td data-label="Name">
            <div class="copyable"><code class="fqdn">${breakable(r.fqdn)}</code><button type="button" class="copy" data-copy="${e(r.fqdn)}" aria-label="Copy name ${e(r.fqdn)}">Copy</button></div>
            <div class="hint">Host only: <code>${e(relative)}</code></div>
          </td>
          <td data-label="Value">
            <div class="copyable"><code class="value">${breakable(r.value)}</code><button type="button" class="copy" data-copy="${e(r.value)}" aria-label="Copy value for ${e(r.fqdn)}">Copy</button></div>
          </td>
          <td data-label="TTL" class="ttl">${e(r.ttl_hint)}</td>
          <td data-label="Status"><span class="status" data-status="${e(r.status)}">${e(RECORD_STATUS_LABELS[r.status] ?? r.status)}</span></td>
        </tr>`;
    })
    .join('');
  const hasMx = view.records.some((r) => r.record_type === 'MX');
  return layout({
    nonce,
    title: `Verify ${view.domain}`,
    script: true,
    main: `
    <header>
      <p class="eyebrow">Sending domain setup</p>
      <h1><span id="domain">${e(view.domain)}</span></h1>
      <p class="summary">Status: <span id="domain-status" class="status" data-status="${e(view.verification_status)}">${e(DOMAIN_STATUS_LABELS[view.verification_status] ?? view.verification_status)}</span>
        <span id="can-send" class="can-send"${view.can_send ? '' : ' hidden'}>can send</span></p>
    </header>
    <section>
      <h2>1. Add these DNS records</h2>
      <p>Add each record at the provider that hosts the DNS of <strong>${e(view.domain)}</strong>. Use the full name shown;
        if your provider appends the domain by itself, enter only the host part.</p>
      <div class="table-wrap">
        <table id="records">
          <thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th><th scope="col" title="Time to live, in seconds">TTL</th><th scope="col">Status</th></tr></thead>
          <tbody>${rows}
          </tbody>
        </table>
      </div>
      <ul class="notes">
        ${hasMx ? '<li>MX: the value is the priority followed by the host. If your provider has a separate priority field, put the number there and the host alone in the value.</li>' : ''}
        <li>TTL is a suggestion; your provider's default works too.</li>
        <li>SPF and DMARC records are checked by a periodic DNS sweep, a few hours after verification.</li>
      </ul>
    </section>
    <section>
      <h2>2. Verify</h2>
      <p>Once the records are published, check them. DNS changes can take a while to spread (up to 72 hours).</p>
      <div class="actions">
        <button type="button" id="verify" class="primary">Verify now</button>
        <p id="result" class="result" role="status" aria-live="polite" hidden></p>
      </div>
    </section>`,
  });
}

/** The page of a token that points nowhere (404). */
export function renderNotFoundPage(nonce: string): string {
  return layout({
    nonce,
    title: 'Link not valid',
    script: false,
    main: `
    <header>
      <h1>This verification link is not valid</h1>
    </header>
    <p>The link may be mistyped, or the domain it was made for is no longer registered. Ask whoever sent it for a new link.</p>`,
  });
}

/** The page shown when the page itself failed (500). */
export function renderErrorPage(nonce: string): string {
  return layout({
    nonce,
    title: 'Something went wrong',
    script: false,
    main: `
    <header>
      <h1>Something went wrong</h1>
    </header>
    <p>The page could not be loaded. Please try again in a minute.</p>`,
  });
}

/** Identifies a row across a verify call (record ids are not public). */
function recordKey(r: { record_type: string; fqdn: string; value: string }): string {
  return `${r.record_type} ${r.fqdn} ${r.value}`;
}

function layout(input: { nonce: string; title: string; main: string; script: boolean }): string {
  return pageLayout({ nonce: input.nonce, title: input.title, main: input.main, style: VERIFICATION_STYLE, script: input.script ? VERIFICATION_SCRIPT : undefined });
}
