import { composeMail, isEmptyHtml, SAMPLE_CART_ITEMS, threadingHeaders, type MailContent } from '../../../../shared/mail-pipeline/render';
import { AppError } from '../../../../shared/platform/core/errors';
import type { Template } from '../../../../shared/mail-pipeline/templates/template';
import { useServiceEnvironment } from '../../support/service-environment';

const SECRET = 'unit-compose-secret-0123456789';
const ACTIVITY = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const deps = { config: { SERVICE_NAME: 'Mailroom' } } as Parameters<typeof composeMail>[0];

useServiceEnvironment({ TOKEN_SECRET: SECRET, INBOUND_DOMAIN: 'reply.example.net', TRACKING_BASE_URL: 'https://api.example.com' });

const content = (over: Partial<MailContent> = {}): MailContent => ({
  recipient: 'ann@example.com',
  sender: 'news@example.com',
  subject: 'Hello',
  html: '<p>Price: {{price}}</p>',
  emailType: 'transactional',
  cc: [],
  bcc: [],
  attachments: [],
  customHeaders: {},
  references: [],
  ...over,
});

const compose = (c: MailContent, extra: { template?: Template; preview?: boolean } = {}) =>
  composeMail(deps, { content: c, activityId: ACTIVITY, projectId: 'p1', secret: SECRET, ...extra });

let templates = 0;
// Each template gets its own id: the compile cache is keyed by (id, version), as in real life.
const template = (html: string, subject: string | null = 'Order {{order}}'): Template => ({
  id: `9b2f3c4d-1111-4222-8333-${String(++templates).padStart(12, '0')}`,
  project_id: 'p1',
  internal_id: 3,
  name: 'Order',
  subject,
  description: null,
  preheader: null,
  html,
  version: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

describe('composing an advanced send', () => {
  describe('transactional mail', () => {
    it('sends html without data as written, so literal braces survive', () => {
      const { payload } = compose(content());
      expect(payload.html).toBe('<p>Price: {{price}}</p>');
      expect(payload.headers).toBeUndefined();
      expect(payload.untracked_links).toBeUndefined();
    });

    it('renders html, subject and text with data', () => {
      const { payload, variablesUsed } = compose(content({ subject: 'Hi {{name}}', text: 'Total {{price}}', data: { price: '9 €', name: 'Ann' } }));
      expect(payload.html).toBe('<p>Price: 9 €</p>');
      expect(payload.subject).toBe('Hi Ann');
      expect(payload.text).toBe('Total 9 €');
      expect(variablesUsed).toEqual(['name', 'price']);
    });

    it('escapes variables in the html only: the subject and the text show them as given, the subject on one line', () => {
      const data = { name: "O'Brien & Co", price: '<5 €>' };
      const { payload } = compose(content({ subject: 'Order for {{name}}\n{{price}}', text: "{{name}}'s total: {{price}}", data }));
      expect(payload.html).toBe('<p>Price: &lt;5 €&gt;</p>');
      expect(payload.subject).toBe("Order for O'Brien & Co <5 €>");
      expect(payload.text).toBe("O'Brien & Co's total: <5 €>");
    });

    it('carries no unsubscribe header even with data', () => {
      expect(compose(content({ data: {} })).payload.headers).toBeUndefined();
    });
  });

  describe('marketing mail', () => {
    it('adds the RFC 8058 headers, the unsubscribe footer and the injected variables', () => {
      const { payload, variablesUsed } = compose(content({ emailType: 'marketing', html: '<p>Sale</p>' }));
      expect(payload.headers?.['List-Unsubscribe']).toMatch(/^<https:\/\/api\.example\.com\/u\/[^>]+>, <mailto:unsubscribe\+/);
      expect(payload.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(payload.html).toContain('Unsubscribe</a>');
      expect(payload.untracked_links).toHaveLength(2);
      expect(variablesUsed).toEqual(expect.arrayContaining(['unsubscribe_url', 'view_in_browser_url']));
    });

    it('does not add a footer when the html already links to unsubscribe_url', () => {
      const { payload } = compose(content({ emailType: 'marketing', html: '<p>Sale <a href="{{unsubscribe_url}}">stop</a></p>' }));
      expect(payload.html.match(/\/u\//g)).toHaveLength(1);
    });
  });

  describe('templates', () => {
    it('renders the stored template and its subject with data', () => {
      const { payload } = compose(content({ subject: undefined, html: undefined, data: { order: 42, name: 'Ann' } }), {
        template: template('<p>Thanks {{name}}</p>'),
      });
      expect(payload.html).toBe('<p>Thanks Ann</p>');
      expect(payload.subject).toBe('Order 42');
    });

    it('prefers the request subject over the template subject', () => {
      expect(compose(content({ subject: 'Mine' }), { template: template('<p>x</p>') }).payload.subject).toBe('Mine');
    });

    it('falls back to the default subject when neither has one', () => {
      expect(compose(content({ subject: undefined }), { template: template('<p>x</p>', null) }).payload.subject).toBe('Email from Mailroom');
    });

    it('refuses a template that renders empty with TEMPLATE_EMPTY (422)', () => {
      expect(() => compose(content(), { template: template('<p>{{nothing}}</p>') })).toThrow(
        expect.objectContaining({ status: 422, message: 'TEMPLATE_EMPTY' }) as unknown as AppError,
      );
    });
  });

  describe('threading and custom headers', () => {
    it('writes In-Reply-To and References next to the custom headers', () => {
      const { payload } = compose(content({ inReplyTo: '<b@x.com>', references: ['<a@x.com>'], customHeaders: { 'X-Tag': 'one' } }));
      expect(payload.headers).toEqual({ 'X-Tag': 'one', 'In-Reply-To': '<b@x.com>', References: '<a@x.com> <b@x.com>' });
    });

    it('ends References with the message replied to, once', () => {
      expect(threadingHeaders('<b@x.com>', [])).toEqual({ 'In-Reply-To': '<b@x.com>', References: '<b@x.com>' });
      expect(threadingHeaders('<b@x.com>', ['<a@x.com>', '<b@x.com>'])).toEqual({ 'In-Reply-To': '<b@x.com>', References: '<a@x.com> <b@x.com>' });
      expect(threadingHeaders(undefined, ['<a@x.com>'])).toEqual({ References: '<a@x.com>' });
    });
  });

  describe('dry-run preview', () => {
    it('keeps variables without a value as placeholders', () => {
      const { payload } = compose(content({ data: { other: 1 } }), { preview: true });
      expect(payload.html).toBe('<p>Price: {{price}}</p>');
    });

    it('injects sample cart items when the template loops over an empty cart', () => {
      const cart = template('<ul>{{#each cart_items}}<li>{{name}}</li>{{/each}}</ul>');
      const preview = compose(content({ data: {} }), { template: cart, preview: true });
      expect(preview.sampleCartItemsInjected).toBe(true);
      expect(preview.payload.html).toContain(`<li>${SAMPLE_CART_ITEMS[0].name}</li>`);
      const given = compose(content({ data: { cart_items: [{ name: 'Real' }] } }), { template: cart, preview: true });
      expect(given.sampleCartItemsInjected).toBe(false);
      expect(given.payload.html).toBe('<ul><li>Real</li></ul>');
    });

    it('never injects sample items into a real send', () => {
      const cart = template('<ul>{{#each cart_items}}<li>{{name}}</li>{{/each}}</ul><p>x</p>');
      expect(compose(content({ data: {} }), { template: cart }).sampleCartItemsInjected).toBe(false);
    });
  });

  describe('empty html', () => {
    it('counts an image as content', () => {
      expect(isEmptyHtml('<p> </p>')).toBe(true);
      expect(isEmptyHtml('<img src="x">')).toBe(false);
    });
  });
});
