import { randomUUID } from 'node:crypto';
import { services } from '../../composition/services';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { fireScheduledSend as fireScheduledSendCode } from '../../shared/mail-pipeline/scheduling/fire-scheduled-send';
import { sendScheduledNow } from '../../shared/mail-pipeline/sending/advanced-send';
import { getScheduledSend } from '../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { putNewTemplate } from '../../shared/mail-pipeline/templates/template-repository';
import { CLOUD_TIMEOUT_MS, WORKERS_EXCEPT_FANOUT, drainEvents, startTestCloud, storedActivity, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';

// The worker's own code, called in place of its handler: run as its function's role.
const fireScheduledSend = asFunctionCode('scheduled-send-worker', fireScheduledSendCode);

let cloud: TestCloud;

beforeAll(async () => {
  // This file reads the events queue itself (email.failed), so the webhook fan-out must not run.
  cloud = await startTestCloud({ workers: WORKERS_EXCEPT_FANOUT });
  await updateProjectFields(services().db, cloud.seed.project_id, { webhook_url: 'https://hooks.example.com/mail' });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

type Data = Record<string, unknown>;
const api = (method: string, path: string, body?: unknown) => cloud.api(method, path, { body });
const items = Array.from({ length: 32 }, (_, i) => ({ n: i }));
/** The finding's example: five nested loops over 32 items, 33 million iterations. */
const FIVE_NESTED_EACH = '<p>{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}{{#each ../../../../a}}{{n}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}</p>';
const BROKEN = [
  ['an unclosed #if', '<p>{{#if x}}abc</p>', 1, 20],
  ['an unclosed {{', '<p>{{ name</p>', 1, 7],
  ['a partial', '<p>{{> footer}}</p>', 1, 4],
  ['a NUL character', '<p>a\u0000</p>', 1, 5],
  ['a helperMissing call', '<p>{{helperMissing}}</p>', 1, 4],
  ['a blockHelperMissing block', '<p>{{#blockHelperMissing}}x{{/blockHelperMissing}}</p>', 1, 4],
  ['the log helper', '<p>{{log "forged"}}</p>', 1, 4],
] as const;
// Over HTTP a NUL never reaches the parser: every JSON body carrying one is refused first (api-handler.ts).
const BROKEN_OVER_HTTP = BROKEN.filter(([name]) => name !== 'a NUL character');
const NUL_IN_BODY = 'Request body strings may not contain NUL characters (U+0000)';

const createTemplate = async (html: string) => {
  const res = await api('POST', '/v1/templates', { name: `T ${randomUUID()}`, html, subject: 'Hi {{name}}' });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; internal_id: number; version: number };
};

/** A template stored as the old code stored it, without any check. */
async function storedBrokenTemplate(html: string): Promise<string> {
  const now = new Date().toISOString();
  const id = randomUUID();
  await putNewTemplate(services().db, {
    id,
    project_id: cloud.seed.project_id,
    internal_id: 900_000 + Math.floor(Math.random() * 90_000),
    name: 'Broken',
    html,
    subject: null,
    description: null,
    preheader: null,
    version: 1,
    created_at: now,
    updated_at: now,
  });
  return id;
}

function expectSyntaxError(res: { status: number; body: Data }, field: string, line: number, column: number) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'TEMPLATE_INVALID', field, line, column });
  expect(res.body.error).toMatch(new RegExp(`^Template syntax error in ${field} at line ${line}, column ${column}: `));
}

describe('POST /v1/templates refuses a template that does not compile', () => {
  test.each(BROKEN_OVER_HTTP)('%s: 400 with the reason, line and column; nothing stored', async (_name, html, line, column) => {
    const before = ((await api('GET', '/v1/templates?per_page=200')).body.pagination as Data).total;
    expectSyntaxError(await api('POST', '/v1/templates', { name: 'Broken', html }), 'html', line, column);
    expect(((await api('GET', '/v1/templates?per_page=200')).body.pagination as Data).total).toBe(before);
  });

  test('a subject that does not compile is refused too', async () => {
    expectSyntaxError(await api('POST', '/v1/templates', { name: 'Broken subject', html: '<p>x</p>', subject: 'Hi {{#if a}}' }), 'subject', 1, 13);
  });

  test('a template whose own text is past the output bound: 422 TEMPLATE_LIMIT_EXCEEDED', async () => {
    const res = await api('POST', '/v1/templates', { name: 'Huge', html: `<p>${'x'.repeat(1_000_001)}</p>` });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Template in html renders to more than 1000000 characters');
  });
});

describe('PUT /v1/templates/:id refuses a template that does not compile', () => {
  test('400 with the reason and place; the stored version is unchanged', async () => {
    const template = await createTemplate('<p>Hi {{name}}</p>');
    expectSyntaxError(await api('PUT', `/v1/templates/${template.id}`, { html: '<p>\n{{> x}}</p>' }), 'html', 2, 1);
    expect((await api('GET', `/v1/templates/${template.id}`)).body.data).toMatchObject({ html: '<p>Hi {{name}}</p>', version: 1 });
  });
});

describe('a NUL character in template content', () => {
  test('is refused with the request body on every route that takes template content: 400', async () => {
    const nul = '<p>a\u0000</p>';
    for (const [path, body] of [
      ['/v1/templates', { name: 'Broken', html: nul }],
      ['/v1/send-template-email', { recipient_email: 'buyer@example.com', sender_email: cloud.seed.sender_email, html_body: nul }],
      ['/send-email', { recipient: 'buyer@example.com', sender: cloud.seed.sender_email, subject: 'S', html: nul, data: {} }],
    ] as const) {
      const res = await api('POST', path, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(NUL_IN_BODY);
    }
  });

  test('in a template stored before that check: the send answers the syntax 400 with its place', async () => {
    const id = await storedBrokenTemplate('<p>a\u0000</p>');
    const res = await api('POST', '/v1/send-template-email', { recipient_email: 'buyer@example.com', sender_email: cloud.seed.sender_email, template_id: id });
    expectSyntaxError(res, 'html', 1, 5);
  });
});

describe('POST /v1/send-template-email: template content never answers 500', () => {
  const body = (over: Data) => ({ recipient_email: 'buyer@example.com', sender_email: cloud.seed.sender_email, ...over });

  test.each(BROKEN_OVER_HTTP)('inline html_body with %s: 400', async (_name, html, line, column) => {
    expectSyntaxError(await api('POST', '/v1/send-template-email', body({ html_body: html })), 'html_body', line, column);
  });

  test('a broken template stored before this check: 400, not 500', async () => {
    const id = await storedBrokenTemplate('<p>{{#if x}}</p>');
    expect((await api('POST', '/v1/send-template-email', body({ template_id: id }))).status).toBe(400);
  });

  test('a render past the bounds: 422 TEMPLATE_LIMIT_EXCEEDED, quickly', async () => {
    const template = await createTemplate(FIVE_NESTED_EACH);
    const started = Date.now();
    const res = await api('POST', '/v1/send-template-email', body({ template_id: template.id, variables: { a: items } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'Template in html needs more than 20000 rendering steps (loops, blocks, helpers and expressions)' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('POST /send-email: template content never answers 500', () => {
  const body = (over: Data) => ({ recipient: 'buyer@example.com', sender: cloud.seed.sender_email, subject: 'S', ...over });

  test('the finding: a 346-byte dry run with five nested #each is refused with 422 in well under a second', async () => {
    const started = Date.now();
    const res = await api('POST', '/send-email', body({ html: FIVE_NESTED_EACH, data: { a: items }, dry_run: true }));
    expect(res.status).toBe(422);
    expect(res.body.code ?? res.body.error).toBeDefined();
    expect(res.body.error).toContain('rendering steps');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test.each(BROKEN_OVER_HTTP)('inline html with %s (rendered with data): 400', async (_name, html, line, column) => {
    expectSyntaxError(await api('POST', '/send-email', body({ html, data: {} })), 'html', line, column);
    expectSyntaxError(await api('POST', '/send-email', body({ html, data: {}, dry_run: true })), 'html', line, column);
  });

  test('a broken subject or text: 400 naming the field', async () => {
    expectSyntaxError(await api('POST', '/send-email', body({ html: '<p>x</p>', subject: '{{#each}}{{/each}}', data: {} })), 'subject', 1, 1);
    expectSyntaxError(await api('POST', '/send-email', body({ html: '<p>x</p>', text: 'a {{> p}}', data: {} })), 'text', 1, 3);
  });

  test('a transactional html without data is sent as written: braces that are not Handlebars are no error', async () => {
    const res = await api('POST', '/send-email', body({ html: '<p>{{ not a template</p>', dry_run: true }));
    expect(res.status).toBe(200);
    expect((res.body.would_send as Data).html_preview).toBe('<p>{{ not a template</p>');
  });

  test('by templateId: a stored broken template is 400, a costly one 422, on sends, dry runs and schedules', async () => {
    const broken = await storedBrokenTemplate('<p>{{> partial}}</p>');
    const costly = await createTemplate(FIVE_NESTED_EACH);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    for (const extra of [{}, { dry_run: true }, { scheduled_at: later }]) {
      expect((await api('POST', '/send-email', body({ templateId: broken, html: undefined, ...extra }))).status).toBe(400);
      expect((await api('POST', '/send-email', body({ templateId: costly.id, html: undefined, data: { a: items }, ...extra }))).status).toBe(422);
    }
  });
});

describe('the scheduled-send worker: a template that can no longer be rendered at its time', () => {
  test('ends failed with template_error and one email.failed; the fire message is acknowledged, not retried', async () => {
    const template = await createTemplate('<p>Hi {{name}}</p>');
    const at = new Date(Date.now() + 3_600_000);
    const scheduled = await api('POST', '/send-email', {
      recipient: `late-${randomUUID().slice(0, 8)}@example.com`,
      sender: cloud.seed.sender_email,
      templateId: template.id,
      data: { name: 'Ann', a: items },
      scheduled_at: at.toISOString(),
    });
    expect(scheduled.status).toBe(200);
    // Accepted at update: with no data the loops run zero times. The scheduled data makes it explode.
    expect((await api('PUT', `/v1/templates/${template.id}`, { html: FIVE_NESTED_EACH })).status).toBe(200);

    const { db } = services();
    const send = (await getScheduledSend(db, scheduled.body.scheduled_send_id as string, true))!;
    await drainEvents(cloud);
    const atItsTime = { ...services(), clock: { now: () => new Date(at.getTime() + 1000) } };
    const message = { v: 1 as const, id: send.id, scheduled_for: send.scheduled_for };
    await expect(fireScheduledSend(atItsTime, message, 'fire-1', sendScheduledNow)).resolves.toMatchObject({ action: 'claim' });
    // A redelivery of the same message changes nothing.
    await fireScheduledSend(atItsTime, message, 'fire-1', sendScheduledNow);

    const activity = await storedActivity(send.email_id);
    expect(activity).toMatchObject({ current_status: 'failed', failure: { error_code: 'template_error', permanent: true } });
    expect((await getScheduledSend(db, send.id, true))?.status).toBe('failed');
    const failed = (await drainEvents(cloud)).filter((e) => e.event === 'email.failed' && e.data.activity_id === send.email_id);
    expect(failed).toHaveLength(1);
    expect(failed[0].data).toMatchObject({ error_code: 'template_error', permanent: true, message_id: null });
  }, 30_000);
});
