/**
 * `npm run build`: compiles src/ to JavaScript with declarations (tsc), then copies the generated
 * types (src/schema.d.ts, which tsc does not copy) beside them. `node build.js <dir>` builds into
 * another folder (the tests build into a temporary one).
 */
const { execFileSync } = require('node:child_process');
const { copyFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const outDir = resolve(process.argv[2] ?? join(__dirname, 'dist'));
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(__dirname, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' });
copyFileSync(join(__dirname, 'src/schema.d.ts'), join(outDir, 'schema.d.ts'));
