import { join } from 'node:path';
import { esbuildOptions } from '../../../../lib/bundling';

/**
 * A function that imports a key builder from keys.ts gets that builder, not its aggregate's
 * definition nor the other builders: the definitions are pure (`/* @__PURE__ *\/ defineAggregate`,
 * no arithmetic in their arguments), so esbuild drops those a bundle never reads.
 */
async function bundled(contents: string): Promise<string> {
  const esbuild = await import('esbuild');
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const result = await esbuild.build({ ...options, minify: false, sourcemap: false, write: false, stdin: { contents, resolveDir: join(__dirname, '../../../../shared/platform/store'), loader: 'ts' } });
  return result.outputFiles[0].text;
}

describe('the aggregate definitions in a function bundle', () => {
  test('a bundle that imports key builders gets those builders and no definition', async () => {
    const code = await bundled(`import { campaignKey, leadKey, domainKey, batchKey, inboundMailKey } from './keys'; console.log(campaignKey('c'), leadKey('p', 'a@b.c'), domainKey('p', 'd'), batchKey('b'), inboundMailKey('o'));`);
    expect(code).toContain('CAMPAIGN#');
    expect(code).not.toContain('defineAggregate');
    expect(code).not.toContain('campaignRateKey');
    expect(code).not.toContain('transitions');
  });

  test('a bundle that reads one definition carries that one only', async () => {
    const code = await bundled(`import { inboundMail } from './aggregates/mail'; console.log(inboundMail.ttl);`);
    expect(code).toContain('inbound mail marker');
    expect(code).not.toContain('"idempotency record"');
    expect(code).not.toContain('"webhook delivery"');
  });

  test('a gateway that applies a campaign transition carries the lifecycle, not the key builders it does not use', async () => {
    const code = await bundled(`import { applyTransition } from './aggregate'; import { campaignLifecycle, campaignKey } from './aggregates/campaign'; export const run = (db: never) => applyTransition(db, campaignLifecycle, 'cancel', campaignKey('c'), { updated_at: 'now' });`);
    expect(code).toContain('resumeUnstarted');
    expect(code).not.toContain('campaignExportObjectKey');
    expect(code).not.toContain('outcome exports');
  });
});
