import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { verifyWebhook, WebhookVerificationError } from '@mailroom/client';
import { API_VERSION } from '../../../composition/openapi/document';
import { webhookExamples } from '../../../composition/openapi/webhooks-section';
import { webhookHeaders } from '../../../shared/notifications/webhooks/signing';

const ROOT = join(__dirname, '../../..');
const CLIENT = join(ROOT, 'clients/typescript');
const SECRET = `whsec_${Buffer.from('a key of twenty-four byte').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('another key of 24 bytes!').toString('base64')}`;

/** A delivery as shared/notifications/webhooks signs it (the delivery worker's own headers). */
function delivery(at = new Date(), body = JSON.stringify(webhookExamples['email.delivery'])) {
  return { body, headers: webhookHeaders({ secret: SECRET, deliveryId: 'msg_0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e', attemptAt: at, body, slot: 'live' }) };
}

describe('the client package (@mailroom/client)', () => {
  const pkg = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
  // The build (tsc in a child process) starts with the file and runs while the example is
  // type-checked in this one: two compilations of the generated types side by side, not in turn.
  let out: string;
  let build: Promise<unknown>;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'mailroom-client-'));
    build = promisify(execFile)(process.execPath, [join(CLIENT, 'build.js'), out]);
    // Awaited by its test; a failure before that test runs must not go unhandled.
    build.catch(() => undefined);
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("has the OpenAPI document's version", () => {
    expect(pkg.version).toBe(API_VERSION);
  });

  it('points main, types and exports at its build, which git ignores', () => {
    expect(pkg).toMatchObject({ main: 'dist/index.js', types: 'dist/index.d.ts', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } }, files: ['dist', 'README.md'] });
    expect(pkg.scripts.build).toBeDefined();
    expect(readFileSync(join(CLIENT, '.gitignore'), 'utf8')).toMatch(/^dist\/$/m);
  });

  it('has an example (examples/first-mail.ts) that type-checks against the generated types', () => {
    const options = JSON.parse(JSON.stringify(ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config.compilerOptions));
    const { options: parsed } = ts.convertCompilerOptionsFromJson({ ...options, types: ['node'], lib: ['ES2022', 'DOM'] }, ROOT);
    const program = ts.createProgram([join(CLIENT, 'examples/first-mail.ts')], { ...parsed, noEmit: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 60_000);

  it('builds to JavaScript with declarations, whose verifyWebhook runs', async () => {
    await build;
    for (const file of ['index.js', 'index.d.ts', 'webhooks.js', 'webhooks.d.ts', 'schema.d.ts']) expect(existsSync(join(out, file))).toBe(true);
    expect(readFileSync(join(out, 'index.d.ts'), 'utf8')).toContain('createMailroomClient(options: MailroomClientOptions): Client<paths>');
    expect(readFileSync(join(out, 'webhooks.d.ts'), 'utf8')).toContain('export declare function verifyWebhook(');
    // webhooks.js needs nothing from node_modules, so it runs from the temporary folder.
    const built = require(join(out, 'webhooks.js')) as typeof import('../../../clients/typescript/src/webhooks');
    const { body, headers } = delivery();
    expect(built.verifyWebhook(body, headers, SECRET)).toEqual(JSON.parse(body));
  }, 60_000);
});

describe('verifyWebhook', () => {
  it('accepts a delivery signed as shared/notifications/webhooks signs it, from Node headers or Fetch Headers, and answers its payload', () => {
    const { body, headers } = delivery();
    expect(verifyWebhook(body, headers, SECRET)).toEqual(webhookExamples['email.delivery']);
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), SECRET)).toEqual(webhookExamples['email.delivery']);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(body, upper, SECRET).event).toBe('email.delivery');
  });

  it('accepts a webhook-signature among several (a rotation)', () => {
    const { body, headers } = delivery();
    expect(verifyWebhook(body, { ...headers, 'webhook-signature': `v1,bm90IGl0 ${headers['webhook-signature']}` }, SECRET).event).toBe('email.delivery');
  });

  it.each([
    ['another secret', () => ({ ...delivery(), secret: OTHER }), 'webhook-signature does not match'],
    ['a changed body', () => ({ ...delivery(), body: delivery().body.replace('"is_test":false', '"is_test":true') }), 'webhook-signature does not match'],
    ['a changed webhook-id', () => ({ body: delivery().body, headers: { ...delivery().headers, 'webhook-id': 'msg_other' } }), 'webhook-signature does not match'],
    ['a wrong X-Svc-Signature', () => ({ body: delivery().body, headers: { ...delivery().headers, 'x-svc-signature': `sha256=${'0'.repeat(64)}` } }), 'X-Svc-Signature does not match'],
    ['a delivery signed 6 minutes ago', () => delivery(new Date(Date.now() - 360_000)), 'webhook-timestamp is too far from now'],
    ['no webhook-signature', () => ({ body: delivery().body, headers: { ...delivery().headers, 'webhook-signature': undefined } }), 'Missing webhook-id, webhook-timestamp or webhook-signature'],
  ])('refuses %s', (_name, make, message) => {
    const { body, headers, secret } = { secret: SECRET, ...make() } as { body: string; headers: Record<string, string | undefined>; secret: string };
    expect(() => verifyWebhook(body, headers, secret)).toThrow(new WebhookVerificationError(message));
  });
});
