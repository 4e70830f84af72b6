import Handlebars from 'handlebars';
import { clearTemplateCache, renderTemplate, templateVariableNames } from '../../../../shared/mail-pipeline/templates/render';

const render = (source: string, variables: Record<string, unknown> = {}, preview = false) => renderTemplate(source, variables, { format: 'html', preview }).output;

describe('renderTemplate', () => {
  test('substitutes variables and escapes HTML; triple braces stay raw', () => {
    expect(render('Hi {{name}}', { name: 'Ann' })).toBe('Hi Ann');
    expect(render('{{v}}', { v: '<script>"x"&\'</script>' })).toBe('&lt;script&gt;&quot;x&quot;&amp;&#x27;&lt;/script&gt;');
    expect(render('{{{v}}}', { v: '<b>bold</b>' })).toBe('<b>bold</b>');
  });

  describe('formats: only HTML escapes variables', () => {
    const as = (format: 'html' | 'text' | 'header', source: string, variables: Record<string, unknown>) => renderTemplate(source, variables, { format }).output;
    const name = { name: "O'Brien & Co <sales>" };

    test('html escapes, text and header write the value as given', () => {
      expect(as('html', 'Order for {{name}}', name)).toBe('Order for O&#x27;Brien &amp; Co &lt;sales&gt;');
      expect(as('text', 'Order for {{name}}', name)).toBe("Order for O'Brien & Co <sales>");
      expect(as('header', 'Order for {{name}}', name)).toBe("Order for O'Brien & Co <sales>");
    });

    test('helpers, loops and the missing-value rules are the same in every format', () => {
      const source = '{{uppercase name}}|{{#each items}}{{this}};{{/each}}|{{missing}}|{{default none "a&b"}}|{{n}}|{{f}}';
      const variables = { ...name, items: ['<1>', '&2'], n: 0, f: false };
      expect(as('text', source, variables)).toBe("O'BRIEN & CO <SALES>|<1>;&2;||a&b|0|false");
      expect(as('html', source, variables)).toBe('O&#x27;BRIEN &amp; CO &lt;SALES&gt;|&lt;1&gt;;&amp;2;||a&amp;b|0|false');
    });

    test('a header folds every CR and LF, from the template or a variable, into a space', () => {
      expect(as('header', 'Hi {{name}}\r\nBcc: x', { name: 'a\r\nBcc: victim@example.com\nX: y\rZ' })).toBe('Hi a Bcc: victim@example.com X: y Z Bcc: x');
      expect(as('text', 'Line {{v}}', { v: '1\n2' })).toBe('Line 1\n2');
    });

    test('a preview placeholder stays {{name}} in every format', () => {
      expect(renderTemplate('Hi {{name}}', {}, { format: 'header', preview: true }).output).toBe('Hi {{name}}');
    });

    test('one compiled template serves every format: the escaping is chosen per render', () => {
      clearTemplateCache();
      expect(renderTemplate('{{v}}', { v: '&' }, { format: 'html', cacheKey: 'formats:1' }).output).toBe('&amp;');
      expect(renderTemplate('{{v}}', { v: '&' }, { format: 'text', cacheKey: 'formats:1' })).toEqual({ output: '&', usedCache: true });
      expect(renderTemplate('{{v}}', { v: '&' }, { format: 'html', cacheKey: 'formats:1' }).output).toBe('&amp;');
    });

    test('a failed render leaves the next one escaping as its own format says', () => {
      expect(() => renderTemplate('{{#each a}}{{#each @root.a}}{{#each @root.a}}{{this}}{{/each}}{{/each}}{{/each}}', { a: Array(100).fill('&') }, { format: 'text' })).toThrow();
      expect(as('html', '{{v}}', { v: '&' })).toBe('&amp;');
    });
  });

  test('helper output is escaped too', () => {
    expect(render('{{uppercase v}}', { v: '<b>' })).toBe('&lt;B&gt;');
  });

  test('missing variables render empty outside previews', () => {
    expect(render('Hi {{name}}!{{a.b}}')).toBe('Hi !');
  });

  test('default falls back for a missing, null or empty value', () => {
    expect(render('{{default name "friend"}}')).toBe('friend');
    expect(render('{{default name "friend"}}', { name: null })).toBe('friend');
    expect(render('{{default name "friend"}}', { name: '' })).toBe('friend');
    expect(render('{{default name "friend"}}', { name: 'Bo' })).toBe('Bo');
  });

  test('#each over an array of objects, with helpers and parent access', () => {
    const source = '<ul>{{#each items}}<li>{{@index}}:{{capitalize name}} {{formatCurrency (multiply price qty) ../currency}}</li>{{/each}}</ul>';
    const items = [
      { name: 'apple', price: 1.5, qty: 3 },
      { name: '<pear>', price: 2, qty: 1 },
    ];
    expect(render(source, { items, currency: 'USD' })).toBe('<ul><li>0:Apple $4.50</li><li>1:&lt;pear&gt; $2.00</li></ul>');
    expect(render(source, { items: [] })).toBe('<ul></ul>');
    expect(render(source, {})).toBe('<ul></ul>');
  });

  test('all helpers inside a template', () => {
    const out = render('{{formatDate when}}|{{formatDate when "long" "Asia/Tokyo"}}|{{formatCurrency total "EUR"}}|{{multiply 3 "x"}}|{{lowercase code}}', {
      when: '2026-01-04T20:00:00Z',
      total: 9.9,
      code: 'ABC',
    });
    expect(out).toBe('1/4/2026|January 5, 2026|€9.90||abc');
  });

  describe('preview', () => {
    test('a variable without a value stays {{variable}}', () => {
      expect(render('Hi {{name}}, {{city}}!', { name: 'Ann' }, true)).toBe('Hi Ann, {{city}}!');
      expect(render('Hi {{name}}', { name: null }, true)).toBe('Hi {{name}}');
      expect(render('{{{name}}}', {}, true)).toBe('{{name}}');
    });
    test('default still applies its fallback and present values render as usual', () => {
      expect(render('{{default name "friend"}} {{x}}', { x: '<i>' }, true)).toBe('friend &lt;i&gt;');
    });
    test('inside #each a missing field stays a placeholder', () => {
      expect(render('{{#each items}}[{{title}}:{{sku}}]{{/each}}', { items: [{ title: 'A' }] }, true)).toBe('[A:{{sku}}]');
    });
    test('outside preview the same template renders empty', () => {
      expect(render('Hi {{city}}', {}, false)).toBe('Hi ');
    });
  });

  test('uses an isolated Handlebars instance: the global one does not know our helpers', () => {
    render('{{uppercase "x"}}');
    expect(Handlebars.helpers.formatCurrency).toBeUndefined();
    expect(Handlebars.helpers.multiply).toBeUndefined();
  });

  describe('cache', () => {
    beforeEach(() => clearTemplateCache());
    test('a miss then a hit for the same key; no key never caches', () => {
      expect(renderTemplate('A {{x}}', { x: 1 }, { format: 'html', cacheKey: 't1:1' })).toEqual({ output: 'A 1', usedCache: false });
      expect(renderTemplate('A {{x}}', { x: 2 }, { format: 'html', cacheKey: 't1:1' })).toEqual({ output: 'A 2', usedCache: true });
      expect(renderTemplate('A {{x}}', { x: 3 }, { format: 'html' }).usedCache).toBe(false);
      expect(renderTemplate('A {{x}}', { x: 3 }, { format: 'html' }).usedCache).toBe(false);
    });
    test('a new version is a new key', () => {
      renderTemplate('v1 {{x}}', {}, { format: 'html', cacheKey: 't2:1' });
      const next = renderTemplate('v2 {{x}}', { x: 'y' }, { format: 'html', cacheKey: 't2:2' });
      expect(next).toEqual({ output: 'v2 y', usedCache: false });
    });
    test('a cached template works in preview and normal mode alike', () => {
      renderTemplate('{{a}}', {}, { format: 'html', cacheKey: 't3:1' });
      expect(renderTemplate('{{a}}', {}, { format: 'html', cacheKey: 't3:1', preview: true })).toEqual({ output: '{{a}}', usedCache: true });
      expect(renderTemplate('{{a}}', {}, { format: 'html', cacheKey: 't3:1' })).toEqual({ output: '', usedCache: true });
    });
    test('bounded: the least recently used key is evicted past 500 entries', () => {
      renderTemplate('first', {}, { format: 'html', cacheKey: 'first:1' });
      for (let i = 0; i < 499; i++) renderTemplate('x', {}, { format: 'html', cacheKey: `k${i}:1` });
      expect(renderTemplate('first', {}, { format: 'html', cacheKey: 'first:1' }).usedCache).toBe(true); // refreshed
      renderTemplate('x', {}, { format: 'html', cacheKey: 'k-new:1' }); // evicts k0
      expect(renderTemplate('x', {}, { format: 'html', cacheKey: 'k0:1' }).usedCache).toBe(false);
      expect(renderTemplate('first', {}, { format: 'html', cacheKey: 'first:1' }).usedCache).toBe(true);
    });
  });
});

describe('templateVariableNames', () => {
  test('top-level names in order, without helpers, data or loop fields', () => {
    const source = [
      '{{name}} {{default nick "x"}} {{formatDate when "long"}}',
      '{{#each items}}{{title}} {{../shop}} {{@index}}{{/each}}',
      '{{#if vip}}{{code}}{{else}}{{other}}{{/if}}',
      '{{user.email}} {{{raw}}} {{name}} {{formatCurrency (multiply price qty) currency}}',
    ].join('\n');
    expect(templateVariableNames(source)).toEqual(['name', 'nick', 'when', 'items', 'shop', 'vip', 'code', 'other', 'user', 'raw', 'price', 'qty', 'currency']);
  });
  test('none in plain HTML', () => expect(templateVariableNames('<p>Hello</p>')).toEqual([]));
});
