/**
 * `npm run admin -- <command>`: operator commands for organizations, partner keys, project
 * quotas, projects' monthly send quotas, lead imports from a file and the pipeline check (`doctor`, bin/doctor.ts), against the local cloud (default) or a deployed table
 * (`--table`). The commands themselves live in shared/platform/organizations/admin-commands.ts and
 * shared/mail-pipeline/quota/quota-admin.ts and return data; this file parses the arguments, picks the table,
 * prints (with bin/admin-render.ts) and sets the exit code (0 done, 1 failed, 2 usage).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { AppError } from '../shared/platform/core/errors';
import { PartialCreateError, runAdminCommand, type AdminCommand } from '../shared/platform/organizations/admin-commands';
import type { MonthlyQuotaSetting } from '../shared/mail-pipeline/quota/monthly-quota';
import { runProjectQuotaCommand, type ProjectQuotaCommand } from '../shared/mail-pipeline/quota/quota-admin';
import { systemClock } from '../shared/platform/adapters/system-clock';
import { importFromFile } from '../shared/audience/imports/import-service';
import { noLeadSignals } from '../shared/platform/core/lead-signals';
import type { ImportFormat, ImportProgress } from '../shared/audience/imports/lead-import';
import { render, renderImport, renderProjectQuota } from './admin-render';
import { runDoctorCli } from './doctor';
import type { Clock } from '../shared/platform/core/ports';
import { createDocumentClient, type Db } from '../shared/platform/store/client';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  org create --name <name> [--max-projects <n>|unlimited] [--root-project <name>]
                                   an organization, its first partner key and (optionally) its
                                   root project with live and test keys; the quota defaults to
                                   unlimited and the root project does not count against it
  org show --org <id>              the organization, its quota and its partner key ids
  key issue --org <id>             a new partner key (printed once)
  key list --org <id>              the partner key ids of the organization
  key revoke --org <id> --key-id <pk_...>
                                   revokes a partner key; it stops working at once
  quota set --org <id> --max <n>|unlimited
                                   how many active client projects the organization may have
  project quota --project <id> [--monthly <n>|unlimited|default]
                                   the project's monthly send quota (live and test sends
                                   together) and this month's count; with --monthly, sets it
                                   first (default: the deployment's DEFAULT_MONTHLY_QUOTA)
  leads import --project <id> --file <path> [--format csv|jsonl]
                                   imports leads from a CSV (header row with an email column) or
                                   JSON-lines file, 1,000 rows a chunk, with a progress bar; the
                                   format defaults from the file name (.csv, .jsonl, .ndjson)
  doctor [--base-url <url> --key <key> --sender <address>] [--timeout <s>]
                                   sends a canary through the whole pipeline and names the
                                   step that broke (\`doctor --help\`); it uses the API, not the table

Target (one of):
  --local                          the local cloud of \`npm start\` (the default): DynamoDB Local on
                                   localhost:$DYNAMODB_PORT (8000), table mailroom
  --table <name> [--region <r>]    a deployed table (stack output TableName), with your usual AWS
                                   credentials
  Without either, AWS_ENDPOINT_URL_DYNAMODB and TABLE_NAME are used when set.

Output:
  --json                           machine-readable JSON on stdout (use \`npm run -s admin\`)
  --help                           this text`;

/** A wrong invocation: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Print the whole usage after the message (no or unknown command); else a pointer to --help. */
    readonly showUsage = false,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where the commands run. */
export type Target =
  | { readonly kind: 'local'; readonly endpoint: string; readonly tableName: string }
  | { readonly kind: 'env'; readonly endpoint?: string; readonly tableName: string; readonly region?: string }
  | { readonly kind: 'deployed'; readonly tableName: string; readonly region?: string };

/** `leads import`: a local file into a project's leads. */
export interface LeadImportCommand {
  readonly kind: 'leads import';
  readonly project: string;
  readonly file: string;
  readonly format: ImportFormat;
}

/** Every command the CLI runs. */
export type Command = AdminCommand | ProjectQuotaCommand | LeadImportCommand;

export interface Invocation {
  readonly command: Command;
  readonly target: Target;
  readonly json: boolean;
}

const OPTIONS = {
  name: { type: 'string' },
  'max-projects': { type: 'string' },
  'root-project': { type: 'string' },
  org: { type: 'string' },
  'key-id': { type: 'string' },
  max: { type: 'string' },
  project: { type: 'string' },
  monthly: { type: 'string' },
  file: { type: 'string' },
  format: { type: 'string' },
  local: { type: 'boolean' },
  table: { type: 'string' },
  region: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

/** Per command: its required and optional flags (the target and output flags go everywhere). */
const COMMANDS: Record<Command['kind'], { required: OptionName[]; optional: OptionName[] }> = {
  'org create': { required: ['name'], optional: ['max-projects', 'root-project'] },
  'org show': { required: ['org'], optional: [] },
  'key issue': { required: ['org'], optional: [] },
  'key list': { required: ['org'], optional: [] },
  'key revoke': { required: ['org', 'key-id'], optional: [] },
  'quota set': { required: ['org', 'max'], optional: [] },
  'project quota': { required: ['project'], optional: ['monthly'] },
  'leads import': { required: ['project', 'file'], optional: ['format'] },
};
const GLOBAL: OptionName[] = ['local', 'table', 'region', 'json', 'help'];
const PLACEHOLDER: Partial<Record<OptionName, string>> = { name: '<name>', org: '<id>', 'key-id': '<pk_...>', max: '<n>|unlimited', project: '<id>', file: '<path>' };

/**
 * Parses the arguments; `'help'` when help was asked for. Throws UsageError for anything wrong:
 * an unknown command or flag, a flag the command does not take, a missing or invalid value.
 */
export function parseAdminArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Invocation | 'help' {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] };
  } catch (error) {
    if (argv.includes('--help') || argv.includes('-h')) return 'help';
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return 'help';
  if (positionals.length === 0) throw new UsageError('Missing command', true);
  const kind = positionals.slice(0, 2).join(' ');
  if (!(kind in COMMANDS)) throw new UsageError(`Unknown command \`${kind}\``, true);
  if (positionals.length > 2) throw new UsageError(`Unexpected argument \`${positionals[2]}\``);
  const spec = COMMANDS[kind as Command['kind']];

  const allowed = new Set<OptionName>([...spec.required, ...spec.optional, ...GLOBAL]);
  for (const name of Object.keys(values) as OptionName[]) {
    if (!allowed.has(name)) throw new UsageError(`\`${kind}\` does not take --${name}`);
  }
  for (const name of spec.required) {
    if (values[name] === undefined) throw new UsageError(`Missing --${name} ${PLACEHOLDER[name] ?? '<value>'} (required by \`${kind}\`)`);
  }
  const text = (name: 'name' | 'org' | 'key-id' | 'root-project' | 'project' | 'file'): string => {
    const value = (values[name] ?? '').trim();
    if (!value) throw new UsageError(`--${name} must not be empty`);
    return value;
  };

  let command: Command;
  switch (kind as Command['kind']) {
    case 'org create':
      command = {
        kind: 'org create',
        name: text('name'),
        maxProjects: values['max-projects'] === undefined ? null : parseQuota(values['max-projects'], 'max-projects'),
        ...(values['root-project'] !== undefined ? { rootProject: text('root-project') } : {}),
      };
      break;
    case 'org show':
    case 'key issue':
    case 'key list':
      command = { kind: kind as 'org show' | 'key issue' | 'key list', org: text('org') };
      break;
    case 'key revoke': {
      const keyId = text('key-id');
      if (keyId.startsWith('sk_')) throw new UsageError('--key-id takes the key id (pk_...), not the key itself; see `key list`');
      if (!/^pk_[A-Za-z0-9]+$/.test(keyId)) throw new UsageError(`--key-id must look like pk_..., got \`${keyId}\``);
      command = { kind: 'key revoke', org: text('org'), keyId };
      break;
    }
    case 'quota set':
      command = { kind: 'quota set', org: text('org'), max: parseQuota(values.max ?? '', 'max') };
      break;
    case 'project quota':
      command = {
        kind: 'project quota',
        project: text('project'),
        ...(values.monthly !== undefined ? { monthly: parseMonthlyQuota(values.monthly) } : {}),
      };
      break;
    case 'leads import': {
      const file = text('file');
      command = { kind: 'leads import', project: text('project'), file, format: parseImportFormat(values.format, file) };
      break;
    }
  }
  return { command, target: resolveTarget(values, env), json: values.json === true };
}

/** A project quota: a whole number (0 allowed) or `unlimited` (null). */
export function parseQuota(value: string, flag: string): number | null {
  const v = value.trim();
  if (v.toLowerCase() === 'unlimited') return null;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
    throw new UsageError(`--${flag} must be a whole number of projects (0 or more) or \`unlimited\`, got \`${value}\``);
  }
  return Number(v);
}

/** A monthly send quota: a whole number of emails (0 allowed), `unlimited`, or `default` (null: the deployment's). */
export function parseMonthlyQuota(value: string): MonthlyQuotaSetting {
  const v = value.trim().toLowerCase();
  if (v === 'unlimited') return 'unlimited';
  if (v === 'default') return null;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
    throw new UsageError(`--monthly must be a whole number of emails (0 or more), \`unlimited\` or \`default\`, got \`${value}\``);
  }
  return Number(v);
}

/** `--format`, or else the file name's extension: .csv is CSV, .jsonl and .ndjson are JSON lines. */
export function parseImportFormat(value: string | undefined, file: string): ImportFormat {
  const format = (value ?? '').trim().toLowerCase() || (/\.csv$/i.test(file) ? 'csv' : /\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : '');
  if (format === 'csv' || format === 'jsonl') return format;
  if (value === undefined) throw new UsageError(`Cannot tell the format of \`${file}\` from its name: pass --format csv or --format jsonl`);
  throw new UsageError(`--format must be csv or jsonl, got \`${value}\``);
}

/** `--table` beats `--local`; without either, the environment; without that, the local cloud. */
export function resolveTarget(values: { local?: boolean; table?: string; region?: string }, env: NodeJS.ProcessEnv): Target {
  if (values.local && values.table !== undefined) throw new UsageError('Give either --local or --table, not both');
  if (values.region !== undefined && values.table === undefined) throw new UsageError('--region goes with --table');
  if (values.table !== undefined) {
    const tableName = values.table.trim();
    if (!tableName) throw new UsageError('--table must not be empty');
    const region = values.region?.trim();
    if (values.region !== undefined && !region) throw new UsageError('--region must not be empty');
    return { kind: 'deployed', tableName, ...(region ? { region } : {}) };
  }
  if (!values.local && (env.AWS_ENDPOINT_URL_DYNAMODB || env.TABLE_NAME)) {
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || (env.AWS_ENDPOINT_URL_DYNAMODB ? 'us-east-1' : undefined);
    return {
      kind: 'env',
      tableName: env.TABLE_NAME || 'mailroom',
      ...(env.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
      ...(region ? { region } : {}),
    };
  }
  const port = env.DYNAMODB_PORT || '8000';
  if (!/^\d+$/.test(port)) throw new UsageError(`DYNAMODB_PORT must be a port number, got \`${port}\``);
  return { kind: 'local', endpoint: `http://localhost:${port}`, tableName: 'mailroom' };
}

/** The DynamoDB client settings for a target. */
export function clientConfig(target: Target, env: NodeJS.ProcessEnv): DynamoDBClientConfig {
  switch (target.kind) {
    case 'local':
      // DynamoDB Local takes any credentials (it runs with -sharedDb); fail fast when it is not up.
      return {
        endpoint: target.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        maxAttempts: 2,
        requestHandler: { connectionTimeout: 3_000 },
      };
    case 'env': {
      // An emulator named by the environment accepts anything; a real endpoint uses the default chain.
      const dummy = target.endpoint && !env.AWS_ACCESS_KEY_ID && !env.AWS_PROFILE;
      return {
        ...(target.endpoint ? { endpoint: target.endpoint } : {}),
        ...(target.region ? { region: target.region } : {}),
        ...(dummy ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      };
    }
    case 'deployed':
      return target.region ? { region: target.region } : {};
  }
}

/** One line for a failure: our own messages as they are, AWS failures in operator terms. */
export function describeError(error: unknown, target: Target): string {
  if (error instanceof PartialCreateError) return `${error.message}: ${describeError(error.cause, target)}\n${error.remedy}`;
  if (error instanceof AppError) return error.message;
  const e = (error ?? {}) as { name?: string; code?: string; message?: string; errors?: { code?: string }[] };
  const where = target.kind === 'deployed' ? `${target.tableName}${target.region ? ` (${target.region})` : ''}` : `${target.tableName} at ${endpointOf(target)}`;
  const networkCodes = ['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN'];
  const network = networkCodes.includes(e.code ?? '') || (e.errors ?? []).some((x) => networkCodes.includes(x.code ?? '')) || e.name === 'TimeoutError';
  if (network) {
    if (target.kind === 'local') return `Nothing answers at ${target.endpoint} (DynamoDB Local). Is \`npm start\` running?`;
    if (target.kind === 'env') return `Nothing answers at ${endpointOf(target)} (AWS_ENDPOINT_URL_DYNAMODB): ${e.message || e.code}`;
    return `Could not reach DynamoDB for table ${where}: ${e.message || e.code}`;
  }
  if (e.name === 'ResourceNotFoundException') {
    const hint = target.kind === 'local' ? ' Is `npm start` running (it creates the table)?' : target.kind === 'deployed' ? ' Check --table (stack output TableName) and --region.' : '';
    return `Table ${where} not found.${hint}`;
  }
  if (e.name === 'CredentialsProviderError') return `No AWS credentials: ${e.message}`;
  if (e.message === 'Region is missing') return 'No AWS region: pass --region or set AWS_REGION';
  return e.message ? (e.name && e.name !== 'Error' && !e.message.includes(e.name) ? `${e.name}: ${e.message}` : e.message) : String(e.name ?? error);
}

function endpointOf(target: Target): string {
  return target.kind === 'deployed' ? 'AWS' : (target.endpoint ?? 'the default AWS endpoint');
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CliDeps {
  /** Builds the table for a target (tests pass a fake). */
  connect?(target: Target, env: NodeJS.ProcessEnv): { db: Db; close(): void };
  clock?: Clock;
}

function connect(target: Target, env: NodeJS.ProcessEnv): { db: Db; close(): void } {
  const client = new DynamoDBClient(clientConfig(target, env));
  return { db: { doc: createDocumentClient(client), tableName: target.tableName }, close: () => client.destroy() };
}

/** The whole CLI: parses, runs, prints; resolves to the exit code. */
export async function runAdminCli(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIo, deps: CliDeps = {}): Promise<number> {
  // doctor talks to the HTTP API, not to the table: it has flags and a target of its own.
  if (argv[0] === 'doctor') return runDoctorCli(argv.slice(1), env, io);
  let invocation: Invocation | 'help';
  try {
    invocation = parseAdminArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(error.showUsage ? `${error.message}\n\n${USAGE}` : `${error.message}\nSee: npm run admin -- --help`);
    return 2;
  }
  if (invocation === 'help') {
    io.out(USAGE);
    return 2;
  }
  const { command, target, json } = invocation;
  const connection = (deps.connect ?? connect)(target, env);
  try {
    const clock = deps.clock ?? systemClock;
    if (command.kind === 'leads import') {
      io.out(renderImport(await runLeadImport(connection.db, clock, command, json), { json }));
      return 0;
    }
    io.out(
      command.kind === 'project quota'
        ? renderProjectQuota(await runProjectQuotaCommand(connection.db, clock, command), { json })
        : render(await runAdminCommand(connection.db, clock, command), { json }),
    );
    return 0;
  } catch (error) {
    io.err(describeError(error, target));
    return 1;
  } finally {
    connection.close();
  }
}

/** Runs `leads import`: the file streamed from disk (a resumable read by byte offset), a progress bar on stderr when it is a terminal. */
async function runLeadImport(db: Db, clock: Clock, command: LeadImportCommand, quiet: boolean) {
  let size: number;
  try {
    size = fs.statSync(command.file).size;
  } catch {
    throw new UsageError(`Cannot read \`${command.file}\``);
  }
  // cli-progress draws nothing when stderr is not a terminal (CI, pipes), so --json output stays clean.
  const bar = new SingleBar({
    stream: process.stderr,
    format: '{bar} {percentage}% | {rows} rows: {created} created, {updated} updated, {failed} failed | ETA {eta_formatted}',
    hideCursor: true,
  });
  if (!quiet) bar.start(size, 0, { rows: 0, created: 0, updated: 0, failed: 0 });
  const onProgress = (p: ImportProgress) => bar.update(p.offset, { rows: p.rows, created: p.created, updated: p.updated, failed: p.failed });
  try {
    // The operator's machine may know no queue: its imports report no lead signals (automations do not start on them).
    return await importFromFile({ db, clock, leadSignals: noLeadSignals }, command.project, command.format, size, async (offset) => fs.createReadStream(command.file, { start: offset }), quiet ? undefined : onProgress);
  } finally {
    if (!quiet) bar.stop();
  }
}

if (require.main === module) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  runAdminCli(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
