import Handlebars from 'handlebars';
import { AppError } from '../../platform/core/errors';
import type { RenderFormat, RenderOptions, RenderResult } from './template';
import { templateHelpers } from './helpers';
import { RenderBudget, TEMPLATE_LIMIT_CODE, currentBudget, renderLimitError } from './render-budget';
import { KNOWN_HELPERS, TEMPLATE_INVALID_CODE, parseTemplate, templateSyntaxError } from './template-syntax';

type HelperFn = (this: unknown, ...args: unknown[]) => unknown;
type Program = ((context: unknown, options?: unknown) => string) & Record<string | symbol, unknown>;
interface BlockOptions {
  fn?: Program;
  inverse?: Program;
  [key: string]: unknown;
}

/** An isolated Handlebars instance: helpers registered here never leak into the global one. */
const engine = Handlebars.create();

const COUNTED = Symbol('counted');

/** A block's body, counted: one step per rendering, and the body's output so far checked against the bound. */
function countedProgram(program: Program | undefined): Program | undefined {
  // `unless` and sections hand their bodies on to `if` and `each`: count them once.
  if (!program || COUNTED in program) return program;
  let total = 0;
  const counted = ((context: unknown, options?: unknown) => {
    const budget = currentBudget();
    budget?.step();
    const out = program(context, options);
    total += out.length;
    budget?.checkLength(total);
    return out;
  }) as Program;
  // Handlebars reads properties of the program function (blockParams, program ids).
  return Object.assign(counted, program, { [COUNTED]: true });
}

/** Wraps a block helper: one step per call, and its `fn`/`inverse` bodies counted per rendering. */
function countedBlockHelper(helper: HelperFn): HelperFn {
  return function (this: unknown, ...args: unknown[]) {
    currentBudget()?.step();
    const last = args[args.length - 1] as BlockOptions | undefined;
    if (last && typeof last === 'object' && 'hash' in last) {
      args[args.length - 1] = { ...last, fn: countedProgram(last.fn), inverse: countedProgram(last.inverse) };
    }
    return helper.apply(this, args);
  };
}

/** Wraps a value helper: one step per call, and its text counted as output. */
function countedHelper(helper: HelperFn): HelperFn {
  return function (this: unknown, ...args: unknown[]) {
    const budget = currentBudget();
    budget?.step();
    const out = helper.apply(this, args);
    if (typeof out === 'string') budget?.wrote(out.length);
    return out;
  };
}

// Every block helper that can repeat or choose a body goes through the counter: the built-in
// `each` loops, and `blockHelperMissing` (a `{{#list}}` section) loops through `each`.
const builtIns = engine.helpers as Record<string, HelperFn>;
for (const name of ['each', 'with', 'if', 'unless', 'blockHelperMissing']) engine.registerHelper(name, countedBlockHelper(builtIns[name]));
engine.registerHelper('lookup', countedHelper(builtIns.lookup));
for (const [name, fn] of Object.entries(templateHelpers)) engine.registerHelper(name, countedHelper(fn as HelperFn));
// `{{log}}` would write tenant text to stdout, where it could pass for our own log lines.
engine.unregisterHelper('log');

/** A value as Handlebars writes it, without the HTML escaping: '' for null and undefined, a SafeString's text, else its string. */
function asGiven(value: unknown): string {
  if (value === null || value === undefined) return '';
  const safe = value as { toHTML?: () => string };
  if (typeof safe.toHTML === 'function') return safe.toHTML();
  return String(value);
}

const WRITERS: Record<RenderFormat, (value: unknown) => string> = {
  html: (value) => Handlebars.Utils.escapeExpression(value as string),
  text: asGiven,
  header: asGiven,
};

/** How the render in progress writes `{{expression}}` values (renders are synchronous, as for the budget). */
let writeValue: (value: unknown) => string = WRITERS.html;

/** Every `{{expression}}` goes through escapeExpression: counting there bounds output that no helper sees. */
function countedEscape(value: unknown): string {
  const out = writeValue(value);
  const budget = currentBudget();
  budget?.step();
  budget?.wrote(out.length);
  return out;
}

// Handlebars hands each compiled template a fresh container whose escapeExpression the generated
// code calls; the main program receives it first, so it is swapped there before any output.
const runtimeTemplate = engine.template.bind(engine);
(engine as unknown as { template: (spec: Record<string, unknown>) => unknown }).template = (spec) => {
  const main = spec.main as (this: unknown, container: { escapeExpression: unknown }, ...rest: unknown[]) => string;
  const counted = function (this: unknown, container: { escapeExpression: unknown }, ...rest: unknown[]) {
    container.escapeExpression = countedEscape;
    return main.call(this, container, ...rest);
  };
  return runtimeTemplate({ ...spec, main: Object.assign(counted, main) } as unknown as TemplateSpecification);
};

/** Compiled templates by cache key (`${templateId}:${version}`), oldest first; bounded. */
const MAX_CACHED = 500;
const compiledCache = new Map<string, HandlebarsTemplateDelegate>();

const CONTEXT_CHANGING_BLOCKS = new Set(['each', 'with']);

/** In a preview, a variable without a value renders as its own placeholder `{{name}}`. */
function previewHelperMissing(...args: unknown[]): unknown {
  const options = args[args.length - 1] as { name?: string };
  if (args.length === 1 && options?.name) return new engine.SafeString(`{{${options.name}}}`);
  throw new Error(`Missing helper: "${options?.name ?? ''}"`);
}

/** Parses, checks and compiles; the 400 of template-syntax.ts when it cannot run. */
function compile(source: string, field: string): HandlebarsTemplateDelegate {
  const ast = parseTemplate(source, field);
  try {
    // Compiled eagerly (Handlebars defers it to the first call), so compiler errors surface here.
    const template = engine.compile(ast, { strict: false });
    (template as unknown as { _setup: (o: object) => void })._setup({});
    return template;
  } catch (error) {
    throw asTemplateError(error, field);
  }
}

function compiled(source: string, cacheKey: string | undefined, field: string): { template: HandlebarsTemplateDelegate; usedCache: boolean } {
  if (cacheKey === undefined) return { template: compile(source, field), usedCache: false };
  const hit = compiledCache.get(cacheKey);
  if (hit) {
    compiledCache.delete(cacheKey);
    compiledCache.set(cacheKey, hit);
    return { template: hit, usedCache: true };
  }
  const template = compile(source, field);
  compiledCache.set(cacheKey, template);
  while (compiledCache.size > MAX_CACHED) {
    const oldest = compiledCache.keys().next().value as string;
    compiledCache.delete(oldest);
  }
  return { template, usedCache: false };
}

/**
 * Whatever a render throws is about the template and its variables (the engine runs no I/O), so
 * it is the sender's 4xx: ours as they are, a string past V8's limit as the output bound, anything
 * else from Handlebars as a syntax error at the place it names.
 */
function asTemplateError(error: unknown, field: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RangeError) return renderLimitError(field, 'output');
  const located = error as { message?: string; lineNumber?: number; column?: number };
  const reason = String(located.message ?? error).replace(/ - \d+:\d+$/, '');
  return templateSyntaxError(field, reason, { line: located.lineNumber ?? 1, column: (located.column ?? 0) + 1 });
}

/**
 * Renders a template with the helpers of part 2, in `options.format`: variables HTML-escaped for
 * `html` (`{{{raw}}}` stays raw), as given for `text` and `header`, and a `header` on one line.
 * With `preview`, a variable without a value stays `{{variable}}`. With `cacheKey`, the compiled
 * template is kept and reused (`usedCache` true on a hit; the escaping is chosen per render, so
 * one compiled template serves every format). A template that does not compile is a 400
 * (`TEMPLATE_INVALID`), a render beyond RENDER_LIMITS a 422 (`TEMPLATE_LIMIT_EXCEEDED`).
 */
export function renderTemplate(source: string, variables: Record<string, unknown>, options: RenderOptions): RenderResult {
  const field = options.field ?? 'html';
  const { template, usedCache } = compiled(source, options.cacheKey, field);
  const runtime: Handlebars.RuntimeOptions = options.preview ? { helpers: { helperMissing: previewHelperMissing } } : {};
  const budget = new RenderBudget(field);
  const previousWriter = writeValue;
  writeValue = WRITERS[options.format];
  try {
    const output = budget.run(() => template(variables ?? {}, runtime));
    budget.checkLength(output.length);
    return { output: options.format === 'header' ? foldLines(output) : output, usedCache };
  } catch (error) {
    throw asTemplateError(error, field);
  } finally {
    writeValue = previousWriter;
  }
}

/** A header value on one line: each CR, LF or CRLF becomes a space, as a header's unfolding would read it. */
function foldLines(value: string): string {
  return value.replace(/\r\n|\r|\n/g, ' ');
}

/**
 * Checks a template before it is stored: it must compile, and render within the bounds with no
 * variables (a template whose own text is past the output bound can never be sent). The 400 or
 * 422 of `renderTemplate` otherwise.
 */
export function checkTemplate(source: string, field: string): void {
  // HTML escaping never shortens output: the bound checked is the widest of every format.
  renderTemplate(source, {}, { field, format: 'html' });
}

/** True for the errors of a template's content: it does not compile, or its render exceeds the bounds. */
export function isTemplateError(error: unknown): error is AppError {
  return error instanceof AppError && (error.code === TEMPLATE_INVALID_CODE || error.code === TEMPLATE_LIMIT_CODE);
}

/** Empties the compiled-template cache (tests). */
export function clearTemplateCache(): void {
  compiledCache.clear();
}

type Node = hbs.AST.Node;

/**
 * The top-level variable names a template uses (for `variables_used`), in order of first use; the
 * 400 of template-syntax.ts for a template that does not compile.
 */
export function templateVariableNames(source: string, field = 'html'): string[] {
  const names = new Set<string>();

  const addPath = (node: Node | undefined, nesting: number) => {
    if (!node || node.type !== 'PathExpression') return;
    const path = node as hbs.AST.PathExpression;
    if (path.data || path.parts.length === 0 || path.depth !== nesting) return;
    names.add(String(path.parts[0]));
  };

  const visitArgs = (params: Node[], hash: hbs.AST.Hash | undefined, nesting: number) => {
    for (const p of params) visit(p, nesting);
    for (const pair of hash?.pairs ?? []) visit(pair.value, nesting);
  };

  const visitCall = (node: hbs.AST.MustacheStatement | hbs.AST.SubExpression | hbs.AST.BlockStatement, nesting: number): boolean => {
    const path = node.path as hbs.AST.PathExpression;
    const hasArgs = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    const isHelper = hasArgs || (path.type === 'PathExpression' && path.parts.length === 1 && KNOWN_HELPERS.has(String(path.parts[0])));
    if (!isHelper) addPath(node.path, nesting);
    visitArgs(node.params, node.hash, nesting);
    return isHelper;
  };

  const visit = (node: Node | undefined, nesting: number): void => {
    if (!node) return;
    switch (node.type) {
      case 'Program':
        for (const child of (node as hbs.AST.Program).body) visit(child, nesting);
        return;
      case 'MustacheStatement':
      case 'SubExpression':
        visitCall(node as hbs.AST.MustacheStatement, nesting);
        return;
      case 'BlockStatement': {
        const block = node as hbs.AST.BlockStatement;
        const isHelper = visitCall(block, nesting);
        const name = (block.path as hbs.AST.PathExpression).parts?.[0];
        // each/with (and a bare section {{#list}}) render their body against a new context.
        const inner = !isHelper || CONTEXT_CHANGING_BLOCKS.has(String(name)) ? nesting + 1 : nesting;
        visit(block.program, inner);
        visit(block.inverse, nesting);
        return;
      }
      case 'PathExpression':
        addPath(node, nesting);
        return;
      default:
        return;
    }
  };

  visit(parseTemplate(source, field), 0);
  return [...names];
}
