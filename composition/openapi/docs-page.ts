import { htmlPageHeaders } from '../../shared/platform/pages/page-headers';

/**
 * The API reference page: RapiDoc, served by the same function, reading /openapi.json. Nothing
 * comes from another origin (RapiDoc's default Google fonts are turned off: `load-fonts="false"`),
 * and the CSP says so: scripts, fonts and fetches from this origin only.
 * RapiDoc sets styles from script (inline style attributes), hence `'unsafe-inline'` for styles only.
 */
export function docsPage(): { headers: Record<string, string>; body: string } {
  return {
    headers: htmlPageHeaders({
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'font-src': "'self' data:",
      'connect-src': "'self'",
    }),
    body: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailroom API reference</title>
<link rel="icon" href="data:,">
<script type="module" src="/docs/rapidoc.js"></script>
</head>
<body>
<rapi-doc spec-url="/openapi.json" load-fonts="false" regular-font="system-ui, sans-serif" mono-font="ui-monospace, monospace" render-style="read" show-header="false" allow-server-selection="false" theme="light"></rapi-doc>
</body>
</html>
`,
  };
}
