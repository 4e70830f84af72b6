/** The console's one HTML page: a shell that loads the built script and stylesheet, under a strict CSP. */
import { config } from '../../platform/core/config';
import { htmlPageHeaders } from '../../platform/pages/page-headers';
import { hashOf } from './console-assets';

/**
 * Where the console's lead-import upload may PUT a file: the payload bucket's presigned URLs. In
 * AWS, S3's regional endpoints (virtual-hosted: any bucket's subdomain); locally, the S3
 * emulator's origin.
 */
export function uploadOrigins(): string {
  const region = config().AWS_REGION;
  // The SDK's own endpoint override, which the local cloud sets and AWS never does.
  const endpoint = process.env.AWS_ENDPOINT_URL_S3;
  if (endpoint) return new URL(endpoint).origin;
  return `https://*.s3.${region}.amazonaws.com https://s3.${region}.amazonaws.com`;
}

/**
 * The page's Content-Security-Policy: scripts and styles only from this origin (no inline script,
 * no eval), calls only to the API and the upload bucket, never framed. A mail's HTML shows in a
 * sandboxed srcdoc frame, which inherits this policy: its remote images do not load (they would
 * count as opens), its scripts never run.
 */
export function consoleDirectives() {
  return {
    'default-src': "'none'",
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'font-src': "'self'",
    'connect-src': `'self' ${uploadOrigins()}`,
    'form-action': "'self'",
  } as const;
}

/** The page: headers (CSP, no framing, no caching of the shell) and the HTML naming the assets by hash. */
export function consolePage(): { headers: Record<string, string>; body: string } {
  const js = `/console/assets/app.js?v=${hashOf('app.js')}`;
  const css = `/console/assets/app.css?v=${hashOf('app.css')}`;
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<link rel="icon" href="data:,">
<title>Mailroom console</title>
<link rel="stylesheet" href="${css}">
<script type="module" src="${js}"></script>
</head>
<body>
<div id="app"></div>
<noscript><p>The Mailroom console needs JavaScript.</p></noscript>
</body>
</html>
`;
  return { headers: htmlPageHeaders(consoleDirectives()), body };
}
