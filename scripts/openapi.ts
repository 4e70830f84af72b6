/**
 * Writes openapi/openapi.json from the route modules and the webhook payloads, then the client's types from it
 * (`npm run openapi`). The docs function bundles the JSON file instead of building the document at
 * cold start (docs/decisions.md, "The OpenAPI document"); a unit test fails when the file is stale.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable } from '../functions/route-table';
import { openApiDocument } from '../composition/openapi/document';
import { documentExtras } from '../composition/openapi/webhooks-section';

const root = join(__dirname, '..');
writeFileSync(join(root, 'openapi/openapi.json'), `${JSON.stringify(openApiDocument(routeTable, documentExtras), null, 2)}\n`);
execFileSync(process.execPath, [join(root, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi/openapi.json', '-o', 'clients/typescript/src/schema.d.ts'], { cwd: root, stdio: 'inherit' });
