import { clickToken, MAX_TRACKED_LINKS, openToken } from './tracking-tokens';

/**
 * Open and click tracking in an HTML body: the links of `<a href="http(s)://...">` tags go through
 * the service's redirect, and a 1x1 pixel is added. A small scanner, not a full HTML parser: it
 * finds `<a ...>` start tags (attribute values may hold `>` inside quotes) and reads their
 * attributes. Extraction and rewriting share the scanner, so the link list at click time is the
 * one the tokens were made from.
 */

export interface TrackingOptions {
  /** Where the tracking endpoints live (`https://track.example.com`), without a trailing slash. */
  baseUrl: string;
  activityId: string;
  secret: string;
  /** Links left as they are (the unsubscribe URL, for example); compared after entity decoding. */
  keep?: readonly string[];
}

/** An `<a>` start tag: `(?=[\s/>])` so that `<abbr>` and `<area>` are not taken for one. */
const ANCHOR = /<a(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
/** One attribute: name, then an optional double-quoted, single-quoted or bare value (a bare value runs to whitespace, as in browsers). */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>][^\s>]*)))?/g;
const CLOSING_BODY = /<\/body\s*>/gi;

interface Anchor {
  /** Offset of the tag in the HTML, and its length. */
  start: number;
  length: number;
  /** The attributes' source (between `<a` and `>`). */
  attributes: string;
  /** The href attribute: offset inside `attributes`, length, decoded and trimmed value. */
  href?: { offset: number; length: number; value: string };
  noTrack: boolean;
}

function* anchors(html: string): Generator<Anchor> {
  for (const tag of html.matchAll(ANCHOR)) {
    const attributes = tag[1];
    const anchor: Anchor = { start: tag.index, length: tag[0].length, attributes, noTrack: false };
    for (const attr of attributes.matchAll(ATTRIBUTE)) {
      const name = attr[1].toLowerCase();
      if (name === 'data-no-track') anchor.noTrack = true;
      // As in browsers, the first href wins.
      if (name === 'href' && !anchor.href) {
        const raw = attr[2] ?? attr[3] ?? attr[4] ?? '';
        anchor.href = { offset: attr.index, length: attr[0].length, value: decodeEntities(raw).trim() };
      }
    }
    yield anchor;
  }
}

/** True for an absolute http or https URL that a browser would follow. */
function isWebLink(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The distinct http(s) links of the `<a>` tags of `html`, in order of first appearance, entities
 * decoded. Every such link counts, tracked or not (data-no-track, kept links), so that the index of
 * a link never depends on the options of the rewrite. Deterministic: click tokens rely on it.
 */
export function extractLinks(html: string): string[] {
  const seen = new Set<string>();
  for (const anchor of anchors(html)) {
    if (anchor.href && isWebLink(anchor.href.value)) seen.add(anchor.href.value);
  }
  return [...seen];
}

/**
 * The tracked version of `html`: links of `<a>` tags rewritten to `${baseUrl}/t/c/<token>`
 * (except mailto:, tel:, anchors and other non-web links, links marked `data-no-track`, the `keep`
 * links and links already pointing at the tracking endpoints), and a 1x1 pixel
 * `${baseUrl}/t/o/<token>.gif` placed before `</body>` (or at the end of a fragment).
 */
export function rewriteForTracking(html: string, options: TrackingOptions): string {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const keep = new Set(options.keep ?? []);
  const ownPrefix = `${baseUrl}/t/`;
  const indexes = new Map(extractLinks(html).map((link, i) => [link, i]));

  let out = '';
  let cursor = 0;
  for (const anchor of anchors(html)) {
    const href = anchor.href;
    if (!href || anchor.noTrack || keep.has(href.value) || href.value.startsWith(ownPrefix)) continue;
    const index = indexes.get(href.value);
    if (index === undefined || index > MAX_TRACKED_LINKS) continue;
    const tracked = `${baseUrl}/t/c/${clickToken(options.activityId, index, href.value, options.secret)}`;
    const attributes = `${anchor.attributes.slice(0, href.offset)}href="${escapeAttribute(tracked)}"${anchor.attributes.slice(href.offset + href.length)}`;
    out += `${html.slice(cursor, anchor.start + 2)}${attributes}>`;
    cursor = anchor.start + anchor.length;
  }
  out += html.slice(cursor);

  const pixel = `<img src="${escapeAttribute(`${baseUrl}/t/o/${openToken(options.activityId, options.secret)}.gif`)}" width="1" height="1" alt="" style="display:none">`;
  const closings = [...out.matchAll(CLOSING_BODY)];
  const last = closings[closings.length - 1];
  return last ? `${out.slice(0, last.index)}${pixel}${out.slice(last.index)}` : `${out}${pixel}`;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references that occur in URLs (`&amp;`, `&#38;`, `&#x26;`, ...); others stay as written. */
export function decodeEntities(value: string): string {
  return value.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return Object.hasOwn(NAMED, name.toLowerCase()) && name === name.toLowerCase() ? NAMED[name] : whole;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex as string, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
