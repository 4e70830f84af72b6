/**
 * The deploy rehearsal (`npm run rehearse`, run by .ci/run): synthesizes the stack with every option
 * and with none, in us-east-1, eu-west-1 and eu-central-2 (SES sends there but does not receive),
 * runs cdk-nag's AWS Solutions rules on each, and cfn-lint on each template for its region.
 * Exits 1 on any cdk-nag error or cfn-lint error.
 *
 * All variants are synthesized in one process with bundling skipped (`aws:cdk:bundling-stacks`):
 * the code assets do not change what CloudFormation is asked, and esbuild would cost minutes.
 *
 * cfn-lint is a Python tool; npm cannot install it and the machines reach no Python registry, so it
 * runs where it is installed (CFN_LINT, else `cfn-lint` on the PATH) and the rehearsal says loudly
 * when it is not. REHEARSAL_REQUIRE_CFN_LINT=1 makes its absence an error.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EmailApiStack } from '../lib/email-api-stack';

/** One synthesized configuration. */
export interface Variant {
  readonly name: string;
  readonly region: string;
  readonly context: Readonly<Record<string, string>>;
}

/** Every deploy-time option (docs/deploy.md), with values a real deploy could have. */
export const EVERY_OPTION = {
  inboundDomain: 'reply.mail.example.com',
  trackingHost: 'track.mail.example.com',
  alarmEmail: 'ops@example.com',
  dmarcReportsDomain: 'dmarc.example.com',
} as const;

/** A region where SES sends mail but does not receive it (cfn-lint E3006 on the receipt rule set). */
export const REGION_WITHOUT_RECEIVING = 'eu-central-2';

/** The rehearsal's variants: every option and none, in two receiving regions and one without (there, receiving stays off). */
export function variants(): Variant[] {
  const { inboundDomain: _receivingOnly, ...withoutReceiving } = EVERY_OPTION;
  return [
    ...['us-east-1', 'eu-west-1'].flatMap((region) => [
      { name: `${region}-every-option`, region, context: EVERY_OPTION },
      { name: `${region}-no-option`, region, context: {} },
    ]),
    { name: `${REGION_WITHOUT_RECEIVING}-every-option-but-receiving`, region: REGION_WITHOUT_RECEIVING, context: withoutReceiving },
    { name: `${REGION_WITHOUT_RECEIVING}-no-option`, region: REGION_WITHOUT_RECEIVING, context: {} },
  ];
}

/**
 * Synthesizes one variant with cdk-nag; returns its template file and cdk-nag's unsuppressed errors.
 * `builtinValidation: false` skips CDK's own CloudFormation validation, which only prints warnings
 * (it fails no synth) and costs seconds a synth: where cfn-lint lints the templates it adds nothing.
 */
export function synthesize(variant: Variant, outdir: string, options: { builtinValidation?: boolean } = {}): { templateFile: string; nagErrors: string[] } {
  const app = new App({
    outdir: path.join(outdir, variant.name),
    context: { 'aws:cdk:bundling-stacks': [], ...variant.context },
    builtinCloudFormationValidation: options.builtinValidation ?? true,
  });
  const stack = new EmailApiStack(app, 'Mailroom', { env: { account: '123456789012', region: variant.region } });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const assembly = app.synth();
  const artifact = assembly.getStackByName(stack.stackName);
  const nagErrors = artifact.messages
    .filter((m) => m.level === 'error')
    .map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
  return { templateFile: path.join(assembly.directory, artifact.templateFile), nagErrors };
}

/** The cfn-lint executable, or undefined when this machine has none. */
export function findCfnLint(): string | undefined {
  const candidates = [process.env.CFN_LINT, 'cfn-lint', '/root/.pyenv/shims/cfn-lint'].filter((c): c is string => Boolean(c));
  return candidates.find((c) => spawnSync(c, ['--version'], { encoding: 'utf8' }).status === 0);
}

/** A template's cfn-lint findings: errors (E rules) apart from warnings and informational ones. */
export interface LintResult {
  readonly errors: string[];
  readonly others: string[];
}

/**
 * Lints templates of one region in one cfn-lint run (its start-up costs seconds); resolves to each
 * file's findings. The run is a child process: the rehearsal synthesizes the next region meanwhile,
 * and the regions' runs share the machine's cores.
 */
export async function lint(cfnLint: string, templateFiles: readonly string[], region: string): Promise<Map<string, LintResult>> {
  const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(cfnLint, ['--format', 'parseable', '--regions', region, '--', ...templateFiles], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
  // cfn-lint's exit code is a bit mask: 1 it failed to run, 2 errors, 4 warnings, 8 informational.
  if ((run.status ?? 0) & 1) throw new Error(`cfn-lint failed to run (exit ${run.status}): ${run.stderr.trim()}`);
  const lines = run.stdout.split('\n').filter(Boolean);
  const results = new Map<string, LintResult>();
  for (const file of templateFiles) {
    // parseable: <file>:<line>:<col>:<end line>:<end col>:<rule>:<message>
    const mine = lines.filter((l) => l.startsWith(`${file}:`)).map((l) => l.slice(file.length + 1));
    results.set(file, { errors: mine.filter((l) => /^(\d+:){4}E\d{4}:/.test(l)), others: mine.filter((l) => !/^(\d+:){4}E\d{4}:/.test(l)) });
  }
  const unattributed = lines.filter((l) => !templateFiles.some((f) => l.startsWith(`${f}:`)));
  if (unattributed.length || ((run.status ?? 0) & 2 && [...results.values()].every((r) => r.errors.length === 0))) {
    throw new Error(`cfn-lint printed what the rehearsal cannot attribute (exit ${run.status}):\n${[...unattributed, run.stderr.trim()].join('\n')}`);
  }
  return results;
}

async function main(): Promise<number> {
  const started = Date.now();
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-rehearsal-'));
  const cfnLint = findCfnLint();
  if (!cfnLint) {
    const banner = '!'.repeat(100);
    console.log(`${banner}\n!! cfn-lint IS NOT INSTALLED on this machine: the templates are NOT linted (cdk-nag still runs).\n` +
      `!! Install it (pip install cfn-lint, where PyPI is reachable) or set CFN_LINT=<path> to lint them.\n${banner}`);
  }
  // The linter must see the region: receiving where SES does not receive is an error (E3006). If it
  // is not reported, the clean results prove nothing.
  const canary: Variant = { name: `${REGION_WITHOUT_RECEIVING}-receiving-canary`, region: REGION_WITHOUT_RECEIVING, context: { inboundDomain: EVERY_OPTION.inboundDomain } };
  let failed = 0;
  try {
    const all = [...variants(), ...(cfnLint ? [canary] : [])];
    const synthesized: { variant: Variant; templateFile: string; nagErrors: string[]; ms: number }[] = [];
    // Each region's cfn-lint run starts as soon as its last template is written (the variants come
    // region by region), so linting overlaps the synthesis of the regions after it.
    const lintRuns: Promise<Map<string, LintResult>>[] = [];
    for (const variant of all) {
      const t0 = Date.now();
      synthesized.push({ variant, ...synthesize(variant, outdir, { builtinValidation: !cfnLint }), ms: Date.now() - t0 });
      const regionDone = !all.slice(all.indexOf(variant) + 1).some((v) => v.region === variant.region);
      if (cfnLint && regionDone) {
        const files = synthesized.filter((s) => s.variant.region === variant.region).map((s) => s.templateFile);
        const lintStarted = Date.now();
        const run = lint(cfnLint, files, variant.region).then((results) => {
          console.log(`cfn-lint ${variant.region}: ${files.length} templates in ${Math.round((Date.now() - lintStarted) / 1000)} s, from ${Math.round((lintStarted - started) / 1000)} s`);
          return results;
        });
        // Awaited below; a synthesis that throws first must not leave this rejection unhandled.
        run.catch(() => undefined);
        lintRuns.push(run);
      }
    }
    const linted = new Map<string, LintResult>();
    for (const results of await Promise.all(lintRuns)) for (const [file, result] of results) linted.set(file, result);
    for (const { variant, templateFile, nagErrors, ms } of synthesized) {
      const lintResult = linted.get(templateFile);
      if (variant === canary) {
        const caught = lintResult!.errors.some((e) => e.includes(':E3006:') && e.includes('ReceiptRule'));
        console.log(`${caught ? 'ok  ' : 'FAIL'} ${variant.name.padEnd(44)} cfn-lint ${caught ? 'finds' : 'does NOT find'} E3006 on the receipt rule set (expected: SES does not receive there)`);
        if (!caught) failed += 1;
        continue;
      }
      const problems = [...nagErrors.map((e) => `cdk-nag ${e}`), ...(lintResult?.errors ?? []).map((e) => `cfn-lint ${e}`)];
      const notes = lintResult ? `cfn-lint: ${lintResult.errors.length} errors, ${lintResult.others.length} warnings` : 'cfn-lint: NOT RUN';
      console.log(`${problems.length ? 'FAIL' : 'ok  '} ${variant.name.padEnd(44)} synth ${String(ms).padStart(6)} ms  cdk-nag: ${nagErrors.length} errors; ${notes}`);
      for (const p of problems) console.log(`       ${p}`);
      const byRule = new Map<string, number>();
      for (const w of lintResult?.others ?? []) byRule.set(w.split(':')[4], (byRule.get(w.split(':')[4]) ?? 0) + 1);
      if (byRule.size) console.log(`       cfn-lint warnings by rule: ${[...byRule].map(([rule, n]) => `${rule} x${n}`).join(', ')}`);
      if (problems.length) failed += 1;
    }
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  if (!cfnLint && process.env.REHEARSAL_REQUIRE_CFN_LINT === '1') {
    console.log('rehearsal: REHEARSAL_REQUIRE_CFN_LINT=1 and cfn-lint is missing');
    failed += 1;
  }
  const total = variants().length + (cfnLint ? 1 : 0);
  console.log(`rehearsal: ${total - failed} of ${total} checks clean${cfnLint ? '' : ' (cdk-nag only: cfn-lint missing)'}, ${Math.round((Date.now() - started) / 1000)} s`);
  return failed ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
