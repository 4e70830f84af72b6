/** Writes docs/access-patterns.md from the aggregate definitions (shared/platform/store/aggregates/): `npx tsx scripts/access-patterns.ts`. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessPatternsDocument } from '../shared/platform/store/aggregates/document';

writeFileSync(join(__dirname, '..', 'docs', 'access-patterns.md'), accessPatternsDocument());
