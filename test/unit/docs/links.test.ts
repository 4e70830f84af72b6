import fs from 'node:fs';
import path from 'node:path';

/**
 * The README and docs/*.md link to each other and to files of the repository: every relative link
 * must reach an existing file, and a link to a heading (`file.md#heading`, `#heading`) an existing
 * heading, slugged as GitHub renders it. Links in code blocks and inline code are not links.
 */

const ROOT = path.join(__dirname, '..', '..', '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and inline code, line by line (so line numbers still match). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a markdown file, a repeated heading numbered as GitHub numbers it. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]);
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

interface Link {
  doc: string;
  line: number;
  target: string;
}

function relativeLinks(doc: string): Link[] {
  const links: Link[] = [];
  proseLines(fs.readFileSync(path.join(ROOT, doc), 'utf8')).forEach((text, i) => {
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
      links.push({ doc, line: i + 1, target });
    }
  });
  return links;
}

/** Why a link is broken, or null when it reaches its file and heading. */
function brokenBecause(link: Link): string | null {
  const [file, anchor] = link.target.split('#', 2);
  const resolved = file ? path.resolve(path.dirname(path.join(ROOT, link.doc)), decodeURIComponent(file)) : path.join(ROOT, link.doc);
  if (!resolved.startsWith(ROOT + path.sep)) return 'points outside the repository';
  if (!fs.existsSync(resolved)) return 'no such file';
  if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(decodeURIComponent(anchor))) return `no heading #${anchor}`;
  return null;
}

describe('links in the README and docs/*.md', () => {
  it('finds the docs and their links', () => {
    expect(DOCS).toContain('docs/decisions.md');
    expect(relativeLinks('README.md').length).toBeGreaterThan(10);
  });

  it.each(DOCS)('every relative link of %s reaches an existing file and heading', (doc) => {
    const broken = relativeLinks(doc)
      .map((link) => ({ link, why: brokenBecause(link) }))
      .filter((b) => b.why !== null)
      .map(({ link, why }) => `${link.doc}:${link.line} ${link.target}: ${why}`);
    expect(broken).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(headingSlug('`POST /v1/send-email` (4.1)')).toBe('post-v1send-email-41');
    expect(headingSlug("Configuration and each function's environment")).toBe('configuration-and-each-functions-environment');
    expect(headingSlug('6. `cdk destroy`: what it keeps')).toBe('6-cdk-destroy-what-it-keeps');
  });
});
