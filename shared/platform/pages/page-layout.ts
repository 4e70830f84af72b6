import { escapeHtml } from '../mail/escape-html';

// The one escape function lives with the mail vocabulary, so that folders the pages import can use it too.
export { escapeHtml };

/**
 * The HTML document of a public page: not indexed, no referrer, its style (and script, if any)
 * allowed by the nonce of the page's Content-Security-Policy.
 */
export function pageLayout(input: { nonce: string; title: string; main: string; style: string; script?: string }): string {
  const nonce = escapeHtml(input.nonce);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex, nofollow">
  <meta name="referrer" content="no-referrer">
  <title>${escapeHtml(input.title)}</title>
  <style nonce="${nonce}">${input.style}</style>
</head>
<body>
  <main>${input.main}
  </main>${input.script ? `\n  <script nonce="${nonce}">${input.script}</script>` : ''}
</body>
</html>
`;
}
