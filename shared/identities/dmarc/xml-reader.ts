/**
 * A small, strict, bounded XML reader for DMARC aggregate reports. A report is plain elements and
 * text: it never needs a DTD, entities beyond the five predefined ones, or processing instructions
 * other than the XML declaration. Everything else is refused before any work grows with the input:
 * a `<!DOCTYPE` or `<!ENTITY` anywhere fails at once (no entity expansion can happen), and the
 * number of elements, the nesting depth and each text's length are capped. Namespace prefixes are
 * dropped from element names (a report is read by local names; the namespace is kept on the root).
 * Written here rather than taken from a package: the XML parsers installed with the project are
 * old transitive copies, and this subset is small enough to read and test whole.
 */

/** An element: its local name, attributes, children and the text directly inside it (trimmed). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Bounds of one document. */
export interface XmlLimits {
  maxElements: number;
  maxDepth: number;
  /** Characters of one text node or attribute value. */
  maxTextLength: number;
}

/** Why a document was refused: `dtd` for any DTD or entity declaration, `too_large` for a bound passed, `invalid` for malformed XML. */
export class XmlRefused extends Error {
  constructor(
    readonly reason: 'dtd' | 'too_large' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** Attributes of one element (a report's root carries a few namespace declarations; other elements at most `lang`). */
const MAX_ATTRIBUTES = 16;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.:-]*/;

/** True when the text declares a DTD or an entity (checked on the whole text before parsing). */
export function declaresDtd(xml: string): boolean {
  return /<!DOCTYPE|<!ENTITY/i.test(xml);
}

/** Parses `xml` into its root element, or throws XmlRefused. */
export function readXml(xml: string, limits: XmlLimits): XmlElement {
  if (declaresDtd(xml)) throw new XmlRefused('dtd', 'The report declares a DTD or an entity');
  const src = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  let at = 0;
  let elements = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (why: string): never => {
    throw new XmlRefused('invalid', `Invalid XML at offset ${at}: ${why}`);
  };
  const bounded = (text: string): string => {
    if (text.length > limits.maxTextLength) throw new XmlRefused('too_large', `A text of the report is longer than ${limits.maxTextLength} characters`);
    return text;
  };

  while (at < src.length) {
    const lt = src.indexOf('<', at);
    const textEnd = lt === -1 ? src.length : lt;
    if (textEnd > at) {
      const raw = src.slice(at, textEnd);
      const parent = stack[stack.length - 1];
      if (parent) parent.text = bounded(parent.text + decode(raw, fail));
      else if (raw.trim() !== '') fail('text outside the root element');
      at = textEnd;
      continue;
    }
    if (src.startsWith('<?', at)) {
      const end = src.indexOf('?>', at);
      if (end === -1) fail('unterminated processing instruction');
      at = end + 2;
    } else if (src.startsWith('<!--', at)) {
      const end = src.indexOf('-->', at + 4);
      if (end === -1) fail('unterminated comment');
      at = end + 3;
    } else if (src.startsWith('<![CDATA[', at)) {
      const end = src.indexOf(']]>', at);
      if (end === -1) fail('unterminated CDATA');
      const parent = stack[stack.length - 1] ?? fail('CDATA outside the root element');
      parent.text = bounded(parent.text + src.slice(at + 9, end));
      at = end + 3;
    } else if (src.startsWith('</', at)) {
      const end = src.indexOf('>', at);
      if (end === -1) fail('unterminated end tag');
      const name = localName(src.slice(at + 2, end).trim());
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes nothing open`);
      open!.text = open!.text.trim();
      at = end + 1;
    } else if (src.startsWith('<!', at)) {
      fail('markup declarations are not allowed');
    } else {
      const match = NAME.exec(src.slice(at + 1, at + 1 + 256));
      if (!match) fail('bad element name');
      const element: XmlElement = { name: localName(match![0]), attributes: {}, children: [], text: '' };
      if (++elements > limits.maxElements) throw new XmlRefused('too_large', `The report has more than ${limits.maxElements} elements`);
      at += 1 + match![0].length;
      let selfClosing = false;
      for (;;) {
        while (/\s/.test(src[at] ?? '')) at++;
        if (at >= src.length) fail('unterminated start tag');
        if (src.startsWith('/>', at)) {
          selfClosing = true;
          at += 2;
          break;
        }
        if (src[at] === '>') {
          at += 1;
          break;
        }
        const attr = NAME.exec(src.slice(at, at + 256)) ?? fail('bad attribute name');
        if (Object.keys(element.attributes).length >= MAX_ATTRIBUTES) throw new XmlRefused('too_large', `An element has more than ${MAX_ATTRIBUTES} attributes`);
        at += attr[0].length;
        while (/\s/.test(src[at] ?? '')) at++;
        if (src[at] !== '=') fail('attribute without a value');
        at++;
        while (/\s/.test(src[at] ?? '')) at++;
        const quote = src[at];
        if (quote !== '"' && quote !== "'") fail('unquoted attribute value');
        const close = src.indexOf(quote!, at + 1);
        if (close === -1) fail('unterminated attribute value');
        element.attributes[attr[0]] = bounded(decode(src.slice(at + 1, close), fail));
        at = close + 1;
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) {
        stack.push(element);
        if (stack.length > limits.maxDepth) throw new XmlRefused('too_large', `The report nests deeper than ${limits.maxDepth} elements`);
      }
    }
  }
  if (stack.length > 0) fail(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root ?? fail('no root element');
}

/** The name without its namespace prefix. */
function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

/** Replaces the predefined entities and character references; any other `&name;` is invalid. */
function decode(text: string, fail: (why: string) => never): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;\s&]{0,10});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail('a bare &');
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isInteger(code) || code < 1 || code > 0x10ffff) fail(`bad character reference &${ref};`);
      return String.fromCodePoint(code);
    }
    return PREDEFINED[ref] ?? fail(`unknown entity &${ref};`);
  });
}

/** The first child named `name`, or undefined. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** Every child named `name`. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** The trimmed text of the first child named `name`, or undefined when absent or empty. */
export function textOf(element: XmlElement | undefined, name: string): string | undefined {
  const text = child(element, name)?.text.trim();
  return text ? text : undefined;
}
