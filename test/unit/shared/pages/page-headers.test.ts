import { contentSecurityPolicy, htmlPageHeaders, newNonce, nonceSource } from '../../../../shared/platform/pages/page-headers';
import { invalidLinkPage, trackingErrorPage } from '../../../../shared/mail-pipeline/tracking/responses';
import { linkPageHeaders, viewHeaders } from '../../../../shared/mail-pipeline/unsubscribe/unsubscribe-pages';
import { pageHeaders } from '../../../../shared/identities/pages/verification-page';
import { VERIFICATION_SCRIPT } from '../../../../shared/identities/pages/verification-assets';
import { DOMAIN_STATUS_LABELS, RECORD_STATUS_LABELS } from '../../../../shared/identities/pages/verification-view';

describe('the Content-Security-Policy of public pages', () => {
  test('starts from nothing: no source, no base, no form target, no framing', () => {
    expect(contentSecurityPolicy({})).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });

  test("a page's directives loosen the base, written in one fixed order", () => {
    expect(contentSecurityPolicy({ 'connect-src': "'self'", 'style-src': nonceSource('N'), 'script-src': nonceSource('N') })).toBe(
      "default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  test('each page gets the policy it had: verification, unsubscribe, view in browser', () => {
    expect(pageHeaders('N')['content-security-policy']).toBe(
      "default-src 'none'; script-src 'nonce-N'; style-src 'nonce-N'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(linkPageHeaders('N')['content-security-policy']).toBe("default-src 'none'; style-src 'nonce-N'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(viewHeaders()['content-security-policy']).toBe(
      "default-src 'none'; script-src 'none'; style-src 'unsafe-inline' https:; img-src https: data:; font-src https: data:; object-src 'none'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation",
    );
  });

  test('every page is never framed, cached, indexed or sent with a referrer', () => {
    expect(htmlPageHeaders({})).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-robots-tag': 'noindex, nofollow',
    });
  });

  test('nonces are fresh per response', () => {
    expect(newNonce()).not.toBe(newNonce());
  });
});

describe('the pages of the tracking host', () => {
  test.each([
    ['an invalid link', invalidLinkPage, 404, 'This link is not valid'],
    ['an error', trackingErrorPage, 500, 'Something went wrong'],
  ])('%s is the shared layout with its style allowed by its own nonce, and no inline style otherwise', (_, render, status, title) => {
    const page = render();
    expect(page.status).toBe(status);
    const nonce = /style-src 'nonce-([^']+)'/.exec(String(page.headers?.['content-security-policy']))?.[1];
    expect(nonce).toBeDefined();
    expect(page.headers?.['content-security-policy']).not.toContain('unsafe-inline');
    expect(String(page.body)).toContain(`<style nonce="${nonce}">`);
    expect(String(page.body)).toContain(`<h1>${title}</h1>`);
    expect(String(page.body)).toContain('<meta name="robots" content="noindex, nofollow">');
  });
});

describe('the verification page script', () => {
  test('names statuses with the labels of the view model (written once)', () => {
    for (const label of [...Object.values(DOMAIN_STATUS_LABELS), ...Object.values(RECORD_STATUS_LABELS)]) expect(VERIFICATION_SCRIPT).toContain(`"${label}"`);
    expect(VERIFICATION_SCRIPT).toContain(JSON.stringify(RECORD_STATUS_LABELS));
  });
});
