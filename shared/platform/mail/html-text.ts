import { compile } from 'html-to-text';

let converter: ((html: string) => string) | undefined;

/**
 * A readable plain-text version of an HTML body, for clients that show no HTML. The options are
 * compiled once per instance, on first use: `convert` rebuilt its selector tree on every call.
 */
export function htmlToText(html: string): string {
  converter ??= compile({ wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });
  return converter(html);
}
