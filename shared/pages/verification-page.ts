import { randomBytes } from 'node:crypto';
import { escapeHtml, pageLayout } from './page-layout';
import { htmlPageHeaders } from './page-headers';
import { fqdn } from '../domains/dns-records';
import type { RecordStatus, SendingDomain, VerificationStatus } from '../domains/domain';

/**
 * The public domain verification page (`/verify/{token}`): the domain, its status and its DNS
 * records, nothing else of the project. Every value that reaches the HTML goes through escapeHtml;
 * the one script and the one stylesheet are static and carry a per-response nonce (the CSP allows
 * nothing else), and the script talks only to its own URL.
 */

/** A verification-page token as issued (24 random bytes, base64url); anything else is not looked up. */
export const PAGE_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** Escaped text that may wrap after each dot (long host names); `<wbr>` adds nothing to copied text. */
function breakable(value: string): string {
  return escapeHtml(value).replace(/\./g, '.<wbr>');
}

/** One record as the page and its verify call show it. */
export interface PageRecord {
  record_type: string;
  name: string;
  fqdn: string;
  value: string;
  ttl_hint: number;
  status: RecordStatus;
}

/** Everything the page may show: the domain, its status, its records. */
export interface PageView {
  domain: string;
  verification_status: VerificationStatus;
  can_send: boolean;
  records: PageRecord[];
}

/** Picks the shown fields out of a domain record (never the project, keys, tokens or senders). */
export function pageView(domain: SendingDomain): PageView {
  return {
    domain: domain.domain,
    verification_status: domain.verification_status,
    can_send: domain.can_send,
    records: domain.dns_records.map((r) => ({
      record_type: r.record_type,
      name: r.name,
      fqdn: fqdn(r.name, domain.domain),
      value: r.value,
      ttl_hint: r.ttl_hint,
      status: r.status,
    })),
  };
}

/** The answer of `POST /verify/{token}`: only these fields. */
export function verifyResult(domain: SendingDomain): {
  domain: string;
  verification_status: VerificationStatus;
  can_send: boolean;
  dns_records: { record_type: string; name: string; fqdn: string; value: string; status: RecordStatus }[];
} {
  const view = pageView(domain);
  return {
    domain: view.domain,
    verification_status: view.verification_status,
    can_send: view.can_send,
    dns_records: view.records.map((r) => ({ record_type: r.record_type, name: r.name, fqdn: r.fqdn, value: r.value, status: r.status })),
  };
}

/** A fresh CSP nonce for one response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Headers of every HTML page: nothing but its own nonced script and style, no framing, no referrer, no caching. */
export function pageHeaders(nonce: string): Record<string, string> {
  return htmlPageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ]);
}

const DOMAIN_STATUS: Record<VerificationStatus, string> = { pending: 'Pending', verified: 'Verified', failed: 'Failed' };
const RECORD_STATUS: Record<RecordStatus, string> = { not_set: 'Not set', propagating: 'Propagating', mismatch: 'Mismatch', verified: 'Verified' };

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
          <td data-label="Status"><span class="status" data-status="${e(r.status)}">${e(RECORD_STATUS[r.status] ?? r.status)}</span></td>
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
      <p class="summary">Status: <span id="domain-status" class="status" data-status="${e(view.verification_status)}">${e(DOMAIN_STATUS[view.verification_status] ?? view.verification_status)}</span>
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
  return pageLayout({ nonce: input.nonce, title: input.title, main: input.main, style: STYLE, script: input.script ? SCRIPT : undefined });
}

const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --accent: #0969da;
  --ok: #1a7f37; --ok-bg: #dafbe1; --warn: #9a6700; --warn-bg: #fff8c5; --bad: #cf222e; --bad-bg: #ffebe9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 32px auto; padding: 28px 32px; background: #fff; border: 1px solid var(--line); border-radius: 10px; }
h1 { margin: 0 0 6px; font-size: 26px; overflow-wrap: anywhere; }
h2 { margin: 28px 0 8px; font-size: 18px; }
.eyebrow { margin: 0; color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: .05em; }
.summary { margin: 0; color: var(--muted); }
code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th, td { padding: 10px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-size: 13px; color: var(--muted); font-weight: 600; white-space: nowrap; }
td.ttl { white-space: nowrap; }
.type { display: inline-block; padding: 1px 6px; border: 1px solid var(--line); border-radius: 4px; font: 12px ui-monospace, monospace; }
.copyable { display: flex; gap: 8px; align-items: flex-start; justify-content: space-between; }
.hint { margin-top: 2px; color: var(--muted); font-size: 12px; }
.hint code { font-size: 12px; }
button { font: inherit; cursor: pointer; border-radius: 6px; }
button.copy { flex: none; padding: 2px 10px; font-size: 12px; color: var(--ink); background: #fff; border: 1px solid var(--line); }
button.copy:hover { background: var(--bg); }
button.primary { padding: 8px 18px; color: #fff; background: var(--accent); border: 1px solid var(--accent); font-weight: 600; }
button.primary:disabled { opacity: .6; cursor: progress; }
button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.status { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; white-space: nowrap;
  color: var(--muted); background: var(--bg); border: 1px solid var(--line); }
.status[data-status="verified"] { color: var(--ok); background: var(--ok-bg); border-color: #aceebb; }
.status[data-status="pending"], .status[data-status="propagating"] { color: var(--warn); background: var(--warn-bg); border-color: #f5e0a0; }
.status[data-status="failed"], .status[data-status="mismatch"] { color: var(--bad); background: var(--bad-bg); border-color: #ffcecb; }
.can-send { margin-left: 6px; font-size: 12px; color: var(--ok); }
.notes { color: var(--muted); font-size: 13px; padding-left: 18px; }
.actions { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; }
.result { margin: 0; padding: 8px 12px; border-radius: 6px; background: var(--bg); border: 1px solid var(--line); }
.result[data-outcome="verified"] { color: var(--ok); background: var(--ok-bg); border-color: #aceebb; }
.result[data-outcome="pending"] { color: var(--warn); background: var(--warn-bg); border-color: #f5e0a0; }
.result[data-outcome="failed"], .result[data-outcome="error"] { color: var(--bad); background: var(--bad-bg); border-color: #ffcecb; }
[hidden] { display: none !important; }
@media (max-width: 720px) {
  main { margin: 0; border: 0; border-radius: 0; padding: 20px 16px; }
  thead { display: none; }
  tr { display: block; padding: 8px 0; border-bottom: 1px solid var(--line); }
  td { display: block; border: 0; padding: 4px 0; }
  td::before { content: attr(data-label); display: block; font-size: 12px; color: var(--muted); }
}
`;

// Static: no value is ever interpolated into it (the page's data lives in escaped attributes).
const SCRIPT = `
(function () {
  'use strict';
  var DOMAIN_STATUS = { pending: 'Pending', verified: 'Verified', failed: 'Failed' };
  var RECORD_STATUS = { not_set: 'Not set', propagating: 'Propagating', mismatch: 'Mismatch', verified: 'Verified' };

  function setStatus(el, status, labels) {
    el.setAttribute('data-status', status);
    el.textContent = labels[status] || status;
  }

  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button.copy') : null;
    if (!button) return;
    var text = button.getAttribute('data-copy') || '';
    var copy = navigator.clipboard && window.isSecureContext ? navigator.clipboard.writeText(text) : fallbackCopy(text);
    copy.then(function () { flash(button, 'Copied'); }, function () { fallbackCopy(text).then(function () { flash(button, 'Copied'); }, function () { flash(button, 'Press Ctrl+C'); }); });
  });

  function flash(button, label) {
    button.textContent = label;
    clearTimeout(button._timer);
    button._timer = setTimeout(function () { button.textContent = 'Copy'; }, 1500);
  }

  var verify = document.getElementById('verify');
  var result = document.getElementById('result');

  function show(outcome, message) {
    result.setAttribute('data-outcome', outcome);
    result.textContent = message;
    result.hidden = false;
  }

  function apply(answer) {
    setStatus(document.getElementById('domain-status'), answer.verification_status, DOMAIN_STATUS);
    document.getElementById('can-send').hidden = !answer.can_send;
    var rows = document.querySelectorAll('#records tbody tr');
    var byKey = {};
    for (var i = 0; i < rows.length; i++) byKey[rows[i].getAttribute('data-record')] = rows[i];
    var matched = 0;
    (answer.dns_records || []).forEach(function (r) {
      var row = byKey[r.record_type + ' ' + r.fqdn + ' ' + r.value];
      if (!row) return;
      matched++;
      setStatus(row.querySelector('.status'), r.status, RECORD_STATUS);
    });
    return matched === rows.length && matched === (answer.dns_records || []).length;
  }

  function message(answer) {
    if (answer.verification_status === 'verified') return ['verified', 'Verified: this domain can send.'];
    if (answer.verification_status === 'failed') return ['failed', 'Verification failed: check that every record is published exactly as shown, then try again.'];
    if (answer.can_send) return ['pending', 'Almost there: this domain can send; DKIM is still being confirmed (DNS changes can take up to 72 hours).'];
    return ['pending', 'Not verified yet: DNS changes can take up to 72 hours.'];
  }

  verify.addEventListener('click', function () {
    verify.disabled = true;
    verify.textContent = 'Checking\\u2026';
    fetch(window.location.pathname, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        if (res.status === 404) throw { userMessage: 'This verification link is no longer valid.' };
        if (!res.ok) throw { userMessage: 'Could not check right now; please try again in a minute.' };
        return res.json();
      })
      .then(function (answer) {
        var complete = apply(answer);
        var m = message(answer);
        show(m[0], m[1] + (complete ? '' : ' The records changed: reload the page to see the current ones.'));
      })
      .catch(function (error) {
        show('error', (error && error.userMessage) || 'Could not check right now; please try again in a minute.');
      })
      .then(function () {
        verify.disabled = false;
        verify.textContent = 'Verify now';
      });
  });
})();
`;
