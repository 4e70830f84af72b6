import { convert } from 'html-to-text';

/** A readable plain-text version of an HTML body, for clients that show no HTML. */
export function htmlToText(html: string): string {
  return convert(html, { wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] });
}
