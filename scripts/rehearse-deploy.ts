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
import { spawnSync } from 'node:child_process';
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

/** Synthesizes one variant with cdk-nag; returns its template file and cdk-nag's unsuppressed errors. */
export function synthesize(variant: Variant, outdir: string): { templateFile: string; nagErrors: string[] } {
  const app = new App({ outdir: path.join(outdir, variant.name), context: { 'aws:cdk:bundling-stacks': [], ...variant.context } });
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
 * Lints templates of one region in one cfn-lint run (its start-up costs seconds); returns each
 * file's findings.
 */
export function lint(cfnLint: string, templateFiles: readonly string[], region: string): Map<string, LintResult> {
  const run = spawnSync(cfnLint, ['--format', 'parseable', '--regions', region, '--', ...templateFiles], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
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

function main(): number {
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
    const synthesized = [...variants(), ...(cfnLint ? [canary] : [])].map((variant) => {
      const t0 = Date.now();
      return { variant, ...synthesize(variant, outdir), ms: Date.now() - t0 };
    });
    const linted = new Map<string, LintResult>();
    if (cfnLint) {
      for (const region of new Set(synthesized.map((s) => s.variant.region))) {
        const files = synthesized.filter((s) => s.variant.region === region).map((s) => s.templateFile);
        for (const [file, result] of lint(cfnLint, files, region)) linted.set(file, result);
      }
    }
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

if (require.main === module) process.exitCode = main();
