import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable } from '../../../../functions/route-table';
import { EMAIL_EVENT_KINDS } from '../../../../shared/mail-pipeline/events/email-events';
import { openApiDocument } from '../../../../composition/openapi/document';
import { documentExtras, webhookExamples } from '../../../../composition/openapi/webhooks-section';
import { webhookPayloadProblem, webhookPayloadSchemas } from '../../../../shared/notifications/webhooks/webhook-payloads';

const ROOT = join(__dirname, '../../../..');

/** Product source files (not tests) of a folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** What describes the events, not what publishes them: left out of the scan. */
const DESCRIBERS = ['shared/notifications/webhooks/webhook-payloads.ts', 'composition/openapi/webhooks-section.ts'].map((p) => join(ROOT, p));

/** Every event name in the code that publishes: each quoted `email.x`, `domain.x`, ..., and the `email.<kind>` of emailEvent. */
function publishedEventNames(): string[] {
  const names = new Set<string>(EMAIL_EVENT_KINDS.map((kind) => `email.${kind}`));
  for (const file of [...sources(join(ROOT, 'shared')), ...sources(join(ROOT, 'functions'))]) {
    if (DESCRIBERS.includes(file)) continue;
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/'((?:email|domain|sender|suppression|automation|campaign|project)\.[a-z_]+)'/g)) names.add(name);
  }
  return [...names].sort();
}

describe('the webhooks section of the OpenAPI document', () => {
  const document = openApiDocument(routeTable, documentExtras) as ReturnType<typeof openApiDocument> & {
    webhooks: Record<string, { post: { tags: string[]; parameters: { name: string; in: string }[]; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
  };

  it('describes every event the code publishes (part 6 list included)', () => {
    const published = publishedEventNames();
    expect(published).toEqual(expect.arrayContaining(['domain.failed', 'domain.send_ready', 'domain.verified', 'email.failed', 'email.inbound', 'email.suppressed', 'sender.failed', 'sender.verified', 'suppression.added', 'suppression.removed', 'automation.webhook', 'campaign.paused']));
    for (const name of published) expect(Object.keys(document.webhooks)).toContain(name);
    expect(Object.keys(document.webhooks).sort()).toEqual(published);
  });

  it('gives each event its payload as a named component and the headers delivery sends', () => {
    for (const [name, hook] of Object.entries(document.webhooks)) {
      const ref = hook.post.requestBody.content['application/json'].schema.$ref;
      expect(ref).toMatch(/^#\/components\/schemas\/\w+Event$/);
      expect(document.components.schemas).toHaveProperty(ref.split('/').pop()!);
      expect(hook.post.parameters.map((p) => `${p.in}:${p.name.toLowerCase()}`)).toEqual(
        expect.arrayContaining(['header:x-svc-signature', 'header:x-svc-environment', 'header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature']),
      );
      expect(hook.post.tags).toEqual(['webhook-events']);
      expect(webhookExamples[name]).toBeDefined();
    }
  });

  it.each(Object.keys(webhookPayloadSchemas))('%s: its example passes its schema', (name) => {
    expect(webhookPayloadProblem(webhookExamples[name])).toBeUndefined();
  });

  it('refuses a payload with a field its publisher does not build, or one missing', () => {
    const example = webhookExamples['email.delivery'] as { data: Record<string, unknown> };
    expect(webhookPayloadProblem({ ...example, data: { ...example.data, delivered_at: 'x' } })).toMatch(/^email\.delivery: data: Unrecognized key/);
    const { activity_id: _, ...rest } = example.data;
    expect(webhookPayloadProblem({ ...example, data: rest })).toMatch(/data\.activity_id/);
    expect(webhookPayloadProblem({ event: 'email.unknown' })).toBe('Unknown event "email.unknown"');
  });
});
