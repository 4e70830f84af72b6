import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clientConfig, describeError, parseAdminArgs, parseImportFormat, parseMonthlyQuota, parseQuota, resolveTarget, runAdminCli, UsageError, type Target } from '../../../bin/admin';
import { render, renderProjectQuota } from '../../../bin/admin-render';
import { PartialCreateError } from '../../../shared/platform/organizations/admin-commands';
import { notFound } from '../../../shared/platform/core/errors';
import type { Db } from '../../../shared/platform/store/client';

const ORG = '6f1c2b8e-0000-4000-8000-000000000001';
const PROJECT = '6f1c2b8e-0000-4000-8000-0000000000aa';
const local: Target = { kind: 'local', endpoint: 'http://localhost:8000', tableName: 'mailroom' };

/** The parsed command (fails the test on `help`). */
function commandOf(argv: string[]) {
  const parsed = parseAdminArgs(argv);
  if (parsed === 'help') throw new Error('unexpected help');
  return parsed.command;
}

function usageError(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    parseAdminArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseAdminArgs', () => {
  it('parses each command', () => {
    expect(parseAdminArgs(['org', 'create', '--name', 'Acme', '--max-projects', '10', '--root-project', 'Acme app'])).toMatchObject({
      command: { kind: 'org create', name: 'Acme', maxProjects: 10, rootProject: 'Acme app' },
      json: false,
    });
    expect(commandOf(['org', 'create', '--name=Acme'])).toEqual({ kind: 'org create', name: 'Acme', maxProjects: null });
    expect(parseAdminArgs(['org', 'show', '--org', ORG, '--json'])).toMatchObject({ command: { kind: 'org show', org: ORG }, json: true });
    expect(commandOf(['key', 'issue', '--org', ORG])).toEqual({ kind: 'key issue', org: ORG });
    expect(commandOf(['--json', 'key', 'list', '--org', ORG])).toEqual({ kind: 'key list', org: ORG });
    expect(commandOf(['key', 'revoke', '--org', ORG, '--key-id', 'pk_0a1b2c3d4e5f'])).toEqual({ kind: 'key revoke', org: ORG, keyId: 'pk_0a1b2c3d4e5f' });
    expect(commandOf(['quota', 'set', '--org', ORG, '--max', 'unlimited'])).toEqual({ kind: 'quota set', org: ORG, max: null });
    expect(commandOf(['quota', 'set', '--org', ORG, '--max', '0'])).toEqual({ kind: 'quota set', org: ORG, max: 0 });
    expect(commandOf(['project', 'quota', '--project', PROJECT, '--monthly', '500'])).toEqual({ kind: 'project quota', project: PROJECT, monthly: 500 });
    expect(commandOf(['project', 'quota', '--project', PROJECT, '--monthly', 'unlimited'])).toEqual({ kind: 'project quota', project: PROJECT, monthly: 'unlimited' });
    expect(commandOf(['project', 'quota', '--project', PROJECT, '--monthly', 'default'])).toEqual({ kind: 'project quota', project: PROJECT, monthly: null });
    expect(commandOf(['project', 'quota', '--project', PROJECT])).toEqual({ kind: 'project quota', project: PROJECT });
  });

  it('returns help for --help, -h and `help`, even next to other mistakes', () => {
    expect(parseAdminArgs(['--help'])).toBe('help');
    expect(parseAdminArgs(['org', 'create', '-h'])).toBe('help');
    expect(parseAdminArgs(['help'])).toBe('help');
    expect(parseAdminArgs(['org', 'create', '--bogus', '--help'])).toBe('help');
  });

  it('refuses missing and unknown commands', () => {
    expect(usageError([])).toBe('Missing command');
    expect(usageError(['frob'])).toBe('Unknown command `frob`');
    expect(usageError(['org'])).toBe('Unknown command `org`');
    expect(usageError(['org', 'delete', '--org', ORG])).toBe('Unknown command `org delete`');
    expect(usageError(['org', 'show', 'extra', '--org', ORG])).toBe('Unexpected argument `extra`');
  });

  it('names the missing required flag', () => {
    expect(usageError(['org', 'create'])).toMatch(/^Missing --name <name>/);
    expect(usageError(['org', 'show'])).toMatch(/^Missing --org <id>/);
    expect(usageError(['key', 'revoke', '--org', ORG])).toMatch(/^Missing --key-id <pk_\.\.\.>/);
    expect(usageError(['quota', 'set', '--org', ORG])).toMatch(/^Missing --max <n>\|unlimited/);
    expect(usageError(['org', 'create', '--name', '  '])).toBe('--name must not be empty');
    expect(usageError(['org', 'show', '--org='])).toBe('--org must not be empty');
  });

  it('refuses unknown flags, flags of another command and flags without a value', () => {
    expect(usageError(['org', 'show', '--org', ORG, '--bogus'])).toMatch(/bogus/);
    expect(usageError(['org', 'show', '--org', ORG, '--name', 'x'])).toBe('`org show` does not take --name');
    expect(usageError(['quota', 'set', '--org', ORG, '--max-projects', '3'])).toBe('`quota set` does not take --max-projects');
    expect(usageError(['quota', 'set', '--org', ORG, '--monthly', '3'])).toBe('`quota set` does not take --monthly');
    expect(usageError(['project', 'quota', '--project', PROJECT, '--max', '3'])).toBe('`project quota` does not take --max');
    expect(usageError(['project', 'quota', '--monthly', '3'])).toMatch(/^Missing --project <id> \(required by `project quota`\)/);
    expect(usageError(['org', 'show', '--org'])).toMatch(/--org/);
  });

  it('wants a key id, not a key, for revoke', () => {
    expect(usageError(['key', 'revoke', '--org', ORG, '--key-id', 'sk_partner_abcdefabcdefabcdef'])).toMatch(/key id \(pk_\.\.\.\), not the key/);
    expect(usageError(['key', 'revoke', '--org', ORG, '--key-id', 'abc'])).toMatch(/must look like pk_/);
  });
});

describe('parseQuota', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['250', 250],
    [' 7 ', 7],
    ['unlimited', null],
    ['UNLIMITED', null],
  ])('accepts %p', (value, expected) => {
    expect(parseQuota(value, 'max')).toBe(expected);
  });

  it.each(['', '-1', '1.5', '1e3', 'ten', 'none', '0x10', '99999999999999999999'])('refuses %p', (value) => {
    expect(() => parseQuota(value, 'max')).toThrow(UsageError);
    expect(() => parseQuota(value, 'max')).toThrow(/--max must be a whole number/);
  });

  it('refuses a bad --max-projects on org create', () => {
    expect(usageError(['org', 'create', '--name', 'Acme', '--max-projects', 'lots'])).toMatch(/^--max-projects must be a whole number/);
    expect(usageError(['quota', 'set', '--org', ORG, '--max=-2'])).toMatch(/^--max must be a whole number/);
  });
});

describe('parseMonthlyQuota', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    [' 10000 ', 10000],
    ['unlimited', 'unlimited'],
    ['Unlimited', 'unlimited'],
    ['default', null],
    ['DEFAULT', null],
  ])('accepts %p', (value, expected) => {
    expect(parseMonthlyQuota(value)).toBe(expected);
  });

  it.each(['', '-1', '1.5', '1e3', 'none', 'null', '99999999999999999999'])('refuses %p', (value) => {
    expect(() => parseMonthlyQuota(value)).toThrow(/^--monthly must be a whole number of emails \(0 or more\), `unlimited` or `default`/);
  });
});

describe('resolveTarget', () => {
  it('defaults to the local cloud on DYNAMODB_PORT or 8000', () => {
    expect(resolveTarget({}, {})).toEqual(local);
    expect(resolveTarget({}, { DYNAMODB_PORT: '8123' })).toEqual({ ...local, endpoint: 'http://localhost:8123' });
    expect(() => resolveTarget({}, { DYNAMODB_PORT: 'eight' })).toThrow(UsageError);
  });

  it('uses AWS_ENDPOINT_URL_DYNAMODB and TABLE_NAME from the environment, unless --local', () => {
    const env = { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9999', TABLE_NAME: 'private', AWS_REGION: 'eu-west-1' };
    expect(resolveTarget({}, env)).toEqual({ kind: 'env', endpoint: 'http://127.0.0.1:9999', tableName: 'private', region: 'eu-west-1' });
    expect(resolveTarget({}, { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9999' })).toEqual({ kind: 'env', endpoint: 'http://127.0.0.1:9999', tableName: 'mailroom', region: 'us-east-1' });
    expect(resolveTarget({}, { TABLE_NAME: 'Mailroom-Table' })).toEqual({ kind: 'env', tableName: 'Mailroom-Table' });
    expect(resolveTarget({ local: true }, env)).toEqual(local);
  });

  it('takes a deployed table with an optional region', () => {
    expect(resolveTarget({ table: 'Mailroom-TableCD117FA1' }, { TABLE_NAME: 'other' })).toEqual({ kind: 'deployed', tableName: 'Mailroom-TableCD117FA1' });
    expect(resolveTarget({ table: 't', region: 'eu-central-1' }, {})).toEqual({ kind: 'deployed', tableName: 't', region: 'eu-central-1' });
  });

  it('refuses contradictory target flags', () => {
    expect(() => resolveTarget({ local: true, table: 't' }, {})).toThrow('Give either --local or --table, not both');
    expect(() => resolveTarget({ region: 'eu-west-1' }, {})).toThrow('--region goes with --table');
    expect(() => resolveTarget({ table: ' ' }, {})).toThrow('--table must not be empty');
    expect(usageError(['org', 'show', '--org', ORG, '--local', '--table', 't'])).toBe('Give either --local or --table, not both');
  });
});

describe('clientConfig', () => {
  it('uses dummy credentials and fails fast for the local cloud', () => {
    expect(clientConfig(local, {})).toMatchObject({
      endpoint: 'http://localhost:8000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      maxAttempts: 2,
    });
  });

  it('leaves credentials to the default chain for a deployed table', () => {
    expect(clientConfig({ kind: 'deployed', tableName: 't', region: 'eu-west-1' }, {})).toEqual({ region: 'eu-west-1' });
    expect(clientConfig({ kind: 'deployed', tableName: 't' }, {})).toEqual({});
  });

  it('uses the environment endpoint, with its credentials when it has some', () => {
    const target: Target = { kind: 'env', endpoint: 'http://127.0.0.1:9', tableName: 'm', region: 'us-east-1' };
    expect(clientConfig(target, { AWS_ACCESS_KEY_ID: 'x' })).toEqual({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
    expect(clientConfig(target, {})).toMatchObject({ credentials: { accessKeyId: 'local' } });
  });
});

describe('describeError', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

  it('asks whether npm start runs when nothing answers locally', () => {
    expect(describeError(refused, local)).toBe('Nothing answers at http://localhost:8000 (DynamoDB Local). Is `npm start` running?');
    expect(describeError(Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' }), local)).toMatch(/npm start/);
  });

  it('explains a missing table and missing credentials', () => {
    const missing = Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' });
    expect(describeError(missing, { kind: 'deployed', tableName: 'T', region: 'eu-west-1' })).toBe('Table T (eu-west-1) not found. Check --table (stack output TableName) and --region.');
    expect(describeError(missing, local)).toMatch(/^Table mailroom at http:\/\/localhost:8000 not found/);
    const creds = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    expect(describeError(creds, { kind: 'deployed', tableName: 'T' })).toBe('No AWS credentials: Could not load credentials from any providers');
  });

  it('passes our own messages through and explains a half-done org create', () => {
    expect(describeError(notFound(`Organization ${ORG} not found`), local)).toBe(`Organization ${ORG} not found`);
    const partial = new PartialCreateError('org-1', 'issuing its partner key', 'Issue one with: npm run admin -- key issue --org org-1', { cause: refused });
    expect(describeError(partial, local)).toBe(
      'Organization org-1 was created, but issuing its partner key failed: Nothing answers at http://localhost:8000 (DynamoDB Local). Is `npm start` running?\nIssue one with: npm run admin -- key issue --org org-1',
    );
  });
});

describe('render', () => {
  const organization = { id: ORG, name: 'Acme', max_projects: 5, active_projects: 2, root_project_id: null, created_at: '2025-01-01T00:00:00.000Z' };

  it('prints JSON without the internal kind', () => {
    const text = render({ kind: 'quota set', organization_id: ORG, max_projects: null, active_projects: 2 }, { json: true });
    expect(JSON.parse(text)).toEqual({ organization_id: ORG, max_projects: null, active_projects: 2 });
  });

  it('prints short text', () => {
    const shown = render({ kind: 'org show', organization, partner_keys: [{ key_id: 'pk_1', created_at: '2025-01-01T00:00:00.000Z' }] }, { json: false });
    expect(shown).toContain('Max projects  5 (2 active)');
    expect(shown).toContain('Partner keys  pk_1');
    expect(render({ kind: 'key list', organization_id: ORG, partner_keys: [] }, { json: false })).toBe('Partner keys  none');
    expect(render({ kind: 'quota set', organization_id: ORG, max_projects: 1, active_projects: 2 }, { json: false })).toMatch(/new ones are refused/);
  });
});

describe('runAdminCli', () => {
  /** A table fake: one organization item, answers Get, Query and Update. */
  function fakeDb(item: Record<string, unknown> | undefined) {
    const sent: unknown[] = [];
    const db = {
      tableName: 'mailroom',
      doc: {
        send: async (command: unknown) => {
          sent.push(command);
          if (command instanceof GetCommand) return { Item: item };
          if (command instanceof QueryCommand) return { Items: [{ pk: 'x', sk: 'y', key_id: 'pk_aa', key_hash: 'secret-hash', created_at: '2025-01-02T00:00:00.000Z' }] };
          if (command instanceof UpdateCommand) {
            if (item) Object.assign(item, { max_projects: command.input.ExpressionAttributeValues?.[':v0'] });
            return {};
          }
          throw new Error(`unexpected ${(command as object).constructor.name}`);
        },
      },
    } as unknown as Db;
    return { db, sent };
  }

  async function run(argv: string[], item?: Record<string, unknown>) {
    const out: string[] = [];
    const err: string[] = [];
    const { db, sent } = fakeDb(item);
    let closed = false;
    const code = await runAdminCli(argv, {}, { out: (t) => out.push(t), err: (t) => err.push(t) }, {
      connect: () => ({ db, close: () => (closed = true) }),
    });
    return { code, out: out.join('\n'), err: err.join('\n'), sent, closed };
  }

  const stored = () => ({ pk: `ORG#${ORG}`, sk: 'ORG', id: ORG, name: 'Acme', max_projects: null, active_projects: 3, created_at: '2025-01-01T00:00:00.000Z' });

  it('exits 2 with the usage for --help and unknown commands, without touching the table', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(2);
    expect(help.out).toMatch(/^Usage: npm run admin/);
    const unknown = await run(['frob']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^Unknown command `frob`\n\nUsage:/);
    expect(unknown.sent).toHaveLength(0);
  });

  it('exits 2 naming the missing flag', async () => {
    const r = await run(['key', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('Missing --org <id> (required by `key list`)\nSee: npm run admin -- --help');
    expect(r.out).toBe('');
  });

  it('prints JSON with --json and closes the client', async () => {
    const r = await run(['quota', 'set', '--org', ORG, '--max', '12', '--json'], stored());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ organization_id: ORG, max_projects: 12, active_projects: 3 });
    expect(r.closed).toBe(true);
  });

  it('never prints key hashes', async () => {
    const r = await run(['org', 'show', '--org', ORG, '--json'], stored());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      organization: { id: ORG, name: 'Acme', max_projects: null, active_projects: 3, root_project_id: null, created_at: '2025-01-01T00:00:00.000Z' },
      partner_keys: [{ key_id: 'pk_aa', created_at: '2025-01-02T00:00:00.000Z' }],
    });
    expect(r.out).not.toContain('secret-hash');
    expect(r.out).not.toContain('pk":');
  });

  it('exits 1 with the message only when the organization does not exist', async () => {
    const r = await run(['key', 'list', '--org', ORG, '--json'], undefined);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`Organization ${ORG} not found`);
    expect(r.out).toBe('');
  });
});

describe('project quota', () => {
  /** A table fake with one project item and, optionally, this month's usage counter (all of it in shard 0). */
  function projectTable(project: Record<string, unknown> | undefined, sent?: number) {
    const updates: UpdateCommand[] = [];
    const db = {
      tableName: 'mailroom',
      doc: {
        send: async (command: unknown) => {
          if (command instanceof GetCommand) {
            const sk = command.input.Key?.sk as string;
            if (sk === 'PROJECT') return { Item: project };
            const pk = command.input.Key?.pk as string;
            return { Item: sk.startsWith('USAGE#') && pk.endsWith('#0') && sent !== undefined ? { sent } : undefined };
          }
          if (command instanceof UpdateCommand) {
            updates.push(command);
            if (!project) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
            if (command.input.UpdateExpression === 'REMOVE monthly_quota') delete project.monthly_quota;
            else project.monthly_quota = command.input.ExpressionAttributeValues?.[':q'];
            return { Attributes: { ...project } };
          }
          throw new Error(`unexpected ${(command as object).constructor.name}`);
        },
      },
    } as unknown as Db;
    return { db, updates };
  }

  const clock = { now: () => new Date('2026-11-15T12:00:00Z') };
  const stored = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ pk: `PROJECT#${PROJECT}`, sk: 'PROJECT', id: PROJECT, name: 'Demo', ...extra });

  async function run(argv: string[], project: Record<string, unknown> | undefined, sent?: number) {
    const out: string[] = [];
    const err: string[] = [];
    const { db, updates } = projectTable(project, sent);
    const code = await runAdminCli(argv, {}, { out: (t) => out.push(t), err: (t) => err.push(t) }, { connect: () => ({ db, close: () => undefined }), clock });
    return { code, out: out.join('\n'), err: err.join('\n'), updates };
  }

  it('sets the monthly quota and shows it with the month so far', async () => {
    const project = stored();
    const r = await run(['project', 'quota', '--project', PROJECT, '--monthly', '500', '--json'], project, 12);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ project_id: PROJECT, monthly_quota: 500, month: '2026-11', sent_this_month: 12 });
    expect(project.monthly_quota).toBe(500);
    expect(r.updates[0].input).toMatchObject({ UpdateExpression: 'SET monthly_quota = :q', ConditionExpression: 'attribute_exists(pk)' });
  });

  it('stores unlimited as such, and default by removing the setting', async () => {
    const project = stored({ monthly_quota: 20 });
    expect(JSON.parse((await run(['project', 'quota', '--project', PROJECT, '--monthly', 'unlimited', '--json'], project)).out).monthly_quota).toBe('unlimited');
    expect(JSON.parse((await run(['project', 'quota', '--project', PROJECT, '--monthly', 'default', '--json'], project)).out)).toMatchObject({ monthly_quota: null, sent_this_month: 0 });
    expect(project).not.toHaveProperty('monthly_quota');
  });

  it('only shows without --monthly', async () => {
    const r = await run(['project', 'quota', '--project', PROJECT], stored({ monthly_quota: 3 }), 3);
    expect(r.code).toBe(0);
    expect(r.updates).toHaveLength(0);
    expect(r.out).toContain('Monthly quota 3');
    expect(r.out).toContain('Sent 2026-11  3');
    expect(r.out).toMatch(/used up/);
  });

  it('exits 1 naming the project when it does not exist', async () => {
    const r = await run(['project', 'quota', '--project', PROJECT, '--monthly', '5'], undefined);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`Project ${PROJECT} not found`);
    expect(r.out).toBe('');
  });

  it('prints the deployment default and an unlimited project in words', () => {
    const base = { kind: 'project quota' as const, project_id: PROJECT, month: '2026-11', sent_this_month: 0 };
    expect(renderProjectQuota({ ...base, monthly_quota: null }, { json: false })).toContain('Monthly quota deployment default (DEFAULT_MONTHLY_QUOTA)');
    expect(renderProjectQuota({ ...base, monthly_quota: 'unlimited' }, { json: false })).toContain('(not counted while unlimited)');
  });
});

describe('leads import', () => {
  it('takes the project and the file; the format comes from --format or the file name', () => {
    expect(commandOf(['leads', 'import', '--project', PROJECT, '--file', 'list.csv'])).toEqual({ kind: 'leads import', project: PROJECT, file: 'list.csv', format: 'csv' });
    expect(commandOf(['leads', 'import', '--project', PROJECT, '--file', 'list.NDJSON'])).toMatchObject({ format: 'jsonl' });
    expect(commandOf(['leads', 'import', '--project', PROJECT, '--file', 'export.txt', '--format', 'JSONL'])).toMatchObject({ format: 'jsonl' });
  });

  it('refuses a missing file, an unknown format and a name that does not tell', () => {
    expect(usageError(['leads', 'import', '--project', PROJECT])).toBe('Missing --file <path> (required by `leads import`)');
    expect(() => parseImportFormat('xlsx', 'a.xlsx')).toThrow('--format must be csv or jsonl, got `xlsx`');
    expect(() => parseImportFormat(undefined, 'export.txt')).toThrow('Cannot tell the format of `export.txt` from its name: pass --format csv or --format jsonl');
  });
});
