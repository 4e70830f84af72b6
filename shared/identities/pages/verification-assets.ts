import { DOMAIN_STATUS_LABELS, RECORD_STATUS_LABELS } from './verification-view';

/** The static assets of the verification page: its one stylesheet and its one script, both nonced by the layout. */

/** The page's stylesheet. */
export const VERIFICATION_STYLE = `
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

/**
 * The page's script. Static: nothing of a request is ever interpolated into it (the page's data
 * lives in escaped attributes); only the label tables, fixed at load, are.
 */
export const VERIFICATION_SCRIPT = `
(function () {
  'use strict';
  var DOMAIN_STATUS = ${JSON.stringify(DOMAIN_STATUS_LABELS)};
  var RECORD_STATUS = ${JSON.stringify(RECORD_STATUS_LABELS)};

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
