/**
 * The one zod import of product code: zod/mini, whose functions tree-shake (the full `zod` import
 * put 443 KB into every bundle, docs/cost.md), with the English messages full zod gives, so that a
 * refused queue message logs the same words as before. Import it as `import * as z from '../../../zod'`.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
