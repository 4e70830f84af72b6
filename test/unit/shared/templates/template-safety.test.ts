import { AppError } from '../../../../shared/platform/core/errors';
import { checkTemplate, renderTemplate } from '../../../../shared/mail-pipeline/templates/render';
import { RENDER_LIMITS } from '../../../../shared/mail-pipeline/templates/render-budget';

/** The AppError a call throws (fails the test when it throws none or another kind). */
function refusal(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the call to be refused');
}

const items = Array.from({ length: 32 }, (_, i) => ({ n: i }));
const FIVE_NESTED_EACH = '{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}{{#each ../../../../a}}<td>{{n}}</td>{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}';

describe('templates that do not compile are a 400 with the parser\'s reason, line and column', () => {
  test.each([
    ['an #if without its closing tag', '<p>\n{{#if x}}abc', 2, 13, "Expecting 'OPEN_INVERSE_CHAIN', 'INVERSE', 'OPEN_ENDBLOCK', got 'EOF'"],
    ['an unclosed {{', 'a\n  {{ foo', 2, 6, "got 'INVALID'"],
    ['a mismatched closing tag', '{{#foo}}x{{/bar}}', 1, 4, "foo doesn't match bar"],
    ['a partial', 'x {{> footer}}', 1, 3, 'partials ({{> name}}) are not supported'],
    ['a partial block', '{{#> layout}}x{{/layout}}', 1, 1, 'partials ({{> name}}) are not supported'],
    ['a decorator', '{{* deco}}', 1, 1, 'decorators ({{* name}}) are not supported'],
    ['a NUL character', 'ab\ncd\u0000', 2, 3, 'the NUL character (U+0000) is not allowed'],
    ['a call of helperMissing', '{{helperMissing}}', 1, 1, 'unknown helper "helperMissing"'],
    ['a block of blockHelperMissing', '{{#blockHelperMissing}}x{{/blockHelperMissing}}', 1, 1, 'unknown helper "blockHelperMissing"'],
    ['an unknown helper', '<b>{{shout name}}</b>', 1, 4, 'unknown helper "shout"'],
    ['an unknown helper in a subexpression', '{{uppercase (shout name)}}', 1, 13, 'unknown helper "shout"'],
    ['#each without its argument', '{{#each}}x{{/each}}', 1, 1, 'each needs exactly one argument'],
    ['#with with two', '{{#with a b}}x{{/with}}', 1, 1, 'with needs exactly one argument'],
  ])('%s', (_name, source, line, column, reason) => {
    const error = refusal(() => renderTemplate(source, {}, { format: 'html' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('TEMPLATE_INVALID');
    expect(error.message).toContain(`Template syntax error in html at line ${line}, column ${column}: `);
    expect(error.message).toContain(reason);
    expect(error.extra).toEqual({ code: 'TEMPLATE_INVALID', field: 'html', line, column });
  });

  test('the error names the field it came from', () => {
    expect(refusal(() => renderTemplate('{{#if a}}', {}, { format: 'html', field: 'subject' })).message).toMatch(/^Template syntax error in subject at line 1, column 10: /);
  });

  test('a broken template is refused the same way from the cache path, and not cached', () => {
    expect(refusal(() => renderTemplate('{{> x}}', {}, { format: 'html', cacheKey: 'broken:1' })).status).toBe(400);
    expect(refusal(() => renderTemplate('{{> x}}', {}, { format: 'html', cacheKey: 'broken:1' })).status).toBe(400);
  });

  test('checkTemplate accepts the templates of part 2', () => {
    expect(() => checkTemplate('{{#each items}}{{capitalize name}} {{formatCurrency (multiply price qty) "EUR"}}{{else}}none{{/each}}', 'html')).not.toThrow();
    expect(() => checkTemplate('{{#if a}}x{{else if b}}y{{/if}}{{#unless c}}z{{/unless}}{{#with o}}{{k}}{{/with}}{{lookup o "k"}}', 'html')).not.toThrow();
  });
});

describe('the log helper (finding 8)', () => {
  test('{{log}} is refused when compiled, and nothing reaches stdout', () => {
    const write = jest.spyOn(process.stdout, 'write');
    const log = jest.spyOn(console, 'log');
    try {
      const error = refusal(() => renderTemplate('{{log "{\\"level\\":\\"ERROR\\",\\"message\\":\\"forged\\"}"}}', {}, { format: 'html' }));
      expect(error.status).toBe(400);
      expect(error.message).toContain('the log helper is not available');
      expect(refusal(() => renderTemplate('{{#log x}}y{{/log}}', {}, { format: 'html' })).status).toBe(400);
      expect(write).not.toHaveBeenCalled();
      expect(log).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
      log.mockRestore();
    }
  });
});

describe('the work of a render is bounded (finding 4)', () => {
  test('five nested #each over 32 items are refused with 422 well under 100 ms of work', () => {
    renderTemplate('{{#each a}}{{n}}{{/each}}', { a: items }, { format: 'html' }); // warm the engine
    const started = performance.now();
    const error = refusal(() => renderTemplate(FIVE_NESTED_EACH, { a: items }, { format: 'html' }));
    const elapsed = performance.now() - started;
    expect(error.status).toBe(422);
    expect(error.code).toBe('TEMPLATE_LIMIT_EXCEEDED');
    expect(error.message).toBe(`Template in html needs more than ${RENDER_LIMITS.steps} rendering steps (loops, blocks, helpers and expressions)`);
    // The old engine took seconds; a loaded shared machine stretches the ~10 ms this takes.
    expect(elapsed).toBeLessThan(1000);
  });

  test('sections ({{#list}}) loop through the same counter as #each', () => {
    const source = '{{#a}}{{#../a}}{{#../../a}}{{#../../../a}}x{{/../../../a}}{{/../../a}}{{/../a}}{{/a}}';
    expect(refusal(() => renderTemplate(source, { a: items }, { format: 'html' })).code).toBe('TEMPLATE_LIMIT_EXCEEDED');
  });

  test('helpers count: a loop of helper calls past the bound is refused', () => {
    const many = Array.from({ length: RENDER_LIMITS.steps / 2 }, (_, i) => i);
    expect(refusal(() => renderTemplate('{{#each a}}{{multiply this 2}}{{/each}}', { a: many }, { format: 'html' })).code).toBe('TEMPLATE_LIMIT_EXCEEDED');
  });

  test.each([
    ['repeated escaped expressions', '{{a}}'.repeat(20)],
    ['repeated raw expressions', '{{{a}}}'.repeat(20)],
    ['a loop of raw expressions', '{{#each l}}{{{../a}}}{{/each}}'],
  ])('output past %s characters is refused: %s', (_name, source) => {
    const error = refusal(() => renderTemplate(source, { a: 'x'.repeat(100_000), l: items }, { format: 'html' }));
    expect(error.status).toBe(422);
    expect(error.message).toBe(`Template in html renders to more than ${RENDER_LIMITS.outputChars} characters`);
  });

  test('a render within the bounds is unchanged, and each render gets a fresh budget', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ name: `item ${i}`, price: i, qty: 2 }));
    const source = '{{#each rows}}<tr><td>{{capitalize name}}</td><td>{{formatCurrency (multiply price qty)}}</td></tr>{{/each}}';
    for (let i = 0; i < 3; i++) expect(renderTemplate(source, { rows }, { format: 'html' }).output).toContain('<td>Item 499</td><td>$998.00</td>');
  });

  test('a template whose own text is past the output bound cannot be stored', () => {
    expect(refusal(() => checkTemplate('x'.repeat(RENDER_LIMITS.outputChars + 1), 'html')).status).toBe(422);
  });
});
