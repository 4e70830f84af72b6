import { decodeEntities, extractLinks, rewriteForTracking } from '../../../../shared/mail-pipeline/tracking/rewrite-html';
import { verifyClickToken, verifyOpenToken, linkHash } from '../../../../shared/mail-pipeline/tracking/tracking-tokens';

const SECRET = 'tracking-secret-1';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const BASE = 'https://track.example.com';
const options = { baseUrl: BASE, activityId: ID, secret: SECRET };

/** The href values of the <a> tags of `html`, in order. */
const hrefs = (html: string) => [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/gi)].map((m) => m[1]);
/** The click token of a tracked URL, decoded. */
const clickOf = (url: string) => verifyClickToken(url.slice(`${BASE}/t/c/`.length), SECRET);

describe('extractLinks', () => {
  test('distinct http(s) links of <a> tags, in order of first appearance', () => {
    const html = `<a href="https://a.example/1">1</a><A HREF='http://b.example/2'>2</A><a href=https://c.example/3>3</a><a href="https://a.example/1">again</a>`;
    expect(extractLinks(html)).toEqual(['https://a.example/1', 'http://b.example/2', 'https://c.example/3']);
  });

  test('non-web links are not links: mailto, tel, anchors, relative, javascript, placeholders', () => {
    const html = `<a href="mailto:x@example.com">m</a><a href="tel:+1">t</a><a href="#top">#</a><a href="/relative">r</a>
      <a href="javascript:alert(1)">j</a><a href="{{unsubscribe_url}}">u</a><a name="x">no href</a><a href="https://">empty host</a>`;
    expect(extractLinks(html)).toEqual([]);
  });

  test('entities are decoded (&amp; in query strings) and whitespace trimmed', () => {
    const html = `<a href=" https://e.example/?a=1&amp;b=2&#38;c=3&#x26;d=4 ">x</a>`;
    expect(extractLinks(html)).toEqual(['https://e.example/?a=1&b=2&c=3&d=4']);
  });

  test('data-no-track links still count, so indexes never depend on what is tracked', () => {
    const html = `<a data-no-track href="https://keep.example/">k</a><a href="https://t.example/">t</a>`;
    expect(extractLinks(html)).toEqual(['https://keep.example/', 'https://t.example/']);
  });

  test('only <a> tags: <abbr>, <area>, <link>, <img> are ignored', () => {
    const html = `<abbr href="https://x.example/">a</abbr><area href="https://y.example/"><link href="https://z.example/s.css"><img src="https://i.example/p.png">`;
    expect(extractLinks(html)).toEqual([]);
  });

  test('a ">" inside a quoted attribute does not end the tag', () => {
    const html = `<a title="a > b" href="https://q.example/">q</a>`;
    expect(extractLinks(html)).toEqual(['https://q.example/']);
  });

  test('an href inside another attribute\'s value is not the href', () => {
    const html = `<a title='href="https://evil.example/"' href="https://good.example/">g</a>`;
    expect(extractLinks(html)).toEqual(['https://good.example/']);
  });

  test('deterministic: the same HTML gives the same list, and so does its tracked version', () => {
    const html = `<p><a href="https://a.example/">a</a> <a href="https://b.example/?x=1&amp;y=2">b</a> <a href="https://a.example/">a</a></p>`;
    expect(extractLinks(html)).toEqual(extractLinks(html));
    const links = extractLinks(html);
    const tracked = rewriteForTracking(html, options);
    // Each tracked URL points at the index of its original link.
    const tokens = hrefs(tracked).map(clickOf);
    expect(tokens.map((t) => t?.index)).toEqual([0, 1, 0]);
    expect(tokens.map((t) => t?.linkHash)).toEqual([linkHash(links[0]), linkHash(links[1]), linkHash(links[0])]);
  });
});

describe('rewriteForTracking', () => {
  const html = `<html><body>
<p>Hi! <a href="https://example.com/pricing?plan=pro&amp;utm_source=mail" class="btn">Pricing</a></p>
<p><a href="mailto:help@example.com">Mail us</a> or <a href="tel:+15551234">call</a> or <a href="#faq">read the FAQ</a>.</p>
<p><a data-no-track href="https://example.com/private">private</a> <a href="https://example.com/unsubscribe?u=1">Unsubscribe</a></p>
<p><a href='http://example.org/docs'>Docs</a></p>
</body></html>`;
  const out = rewriteForTracking(html, { ...options, keep: ['https://example.com/unsubscribe?u=1'] });

  test('web links go through the click redirect, each to its original link', () => {
    const all = hrefs(out.replace(/'/g, '"'));
    const tracked = all.filter((h) => h.startsWith(`${BASE}/t/c/`));
    expect(tracked).toHaveLength(2);
    const links = extractLinks(html);
    expect(tracked.map((u) => links[clickOf(u)!.index])).toEqual(['https://example.com/pricing?plan=pro&utm_source=mail', 'http://example.org/docs']);
    expect(tracked.map((u) => clickOf(u)?.activityId)).toEqual([ID, ID]);
  });

  test('other attributes of a rewritten tag are kept', () => {
    expect(out).toMatch(/<a href="https:\/\/track\.example\.com\/t\/c\/[A-Za-z0-9_-]{55}" class="btn">Pricing<\/a>/);
  });

  test('mailto, tel, anchors, data-no-track and kept (unsubscribe) links are untouched', () => {
    for (const kept of ['href="mailto:help@example.com"', 'href="tel:+15551234"', 'href="#faq"', '<a data-no-track href="https://example.com/private">', 'href="https://example.com/unsubscribe?u=1"']) {
      expect(out).toContain(kept);
    }
  });

  test('the text around the links is unchanged', () => {
    const strip = (s: string) => s.replace(/<a\b[^>]*>/gi, '<a>').replace(/<img[^>]*>/gi, '');
    expect(strip(out)).toBe(strip(html));
  });

  test('a pixel with an open token sits just before </body>', () => {
    const match = /<img src="https:\/\/track\.example\.com\/t\/o\/([A-Za-z0-9_-]+)\.gif" width="1" height="1" alt="" style="display:none"><\/body>/.exec(out);
    expect(match).not.toBeNull();
    expect(verifyOpenToken(match![1], SECRET)).toBe(ID);
    expect(out.match(/<img /g)).toHaveLength(1);
  });

  test('a fragment without </body> gets the pixel at the end', () => {
    const fragment = rewriteForTracking('<p>Hello <a href="https://a.example/">a</a></p>', options);
    expect(fragment).toMatch(/<\/p><img src="https:\/\/track\.example\.com\/t\/o\/[A-Za-z0-9_-]{44}\.gif"[^>]*>$/);
  });

  test('the last </body> is used, whatever its case', () => {
    const tracked = rewriteForTracking('<BODY><p>x</p></BODY >', options);
    expect(tracked).toMatch(/<p>x<\/p><img [^>]+><\/BODY >$/);
  });

  test('a trailing slash of the base URL is dropped', () => {
    const tracked = rewriteForTracking('<a href="https://a.example/">a</a>', { ...options, baseUrl: `${BASE}/` });
    expect(hrefs(tracked)[0]).toMatch(/^https:\/\/track\.example\.com\/t\/c\/[A-Za-z0-9_-]{55}$/);
  });

  test('a mail without links only gets the pixel', () => {
    const tracked = rewriteForTracking('<p>No links</p>', options);
    expect(tracked.startsWith('<p>No links</p><img ')).toBe(true);
  });

  test('links already pointing at the tracking endpoints are not wrapped again', () => {
    const once = rewriteForTracking('<a href="https://a.example/">a</a>', options);
    const withoutPixel = once.replace(/<img [^>]+>$/, '');
    const twice = rewriteForTracking(withoutPixel, options);
    expect(hrefs(twice)).toEqual(hrefs(once));
  });

  test('unquoted href values and upper-case tags are rewritten', () => {
    const tracked = rewriteForTracking('<A HREF=https://a.example/x?y=1>a</A>', options);
    expect(tracked).toMatch(/^<A href="https:\/\/track\.example\.com\/t\/c\/[A-Za-z0-9_-]{55}">a<\/A>/);
  });

  test('links with query strings keep their identity: the token hashes the decoded link', () => {
    const tracked = rewriteForTracking('<a href="https://a.example/?q=a&amp;r=b#frag">a</a>', options);
    expect(clickOf(hrefs(tracked)[0])?.linkHash).toBe(linkHash('https://a.example/?q=a&r=b#frag'));
  });
});

describe('decodeEntities', () => {
  test('named, decimal and hex references; unknown ones stay as written', () => {
    expect(decodeEntities('a&amp;b&lt;c&gt;d&quot;e&apos;f&#39;g&#x2F;h&unknown;i&AMP;')).toBe('a&b<c>d"e\'f\'g/h&unknown;i&AMP;');
  });

  test('out-of-range code points stay as written', () => {
    expect(decodeEntities('&#0;&#xD800;&#x110000;')).toBe('&#0;&#xD800;&#x110000;');
  });
});
