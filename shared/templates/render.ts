import Handlebars from 'handlebars';
import type { RenderOptions, RenderResult } from './template';
import { templateHelpers } from './helpers';

/** An isolated Handlebars instance: helpers registered here never leak into the global one. */
const engine = Handlebars.create();
for (const [name, fn] of Object.entries(templateHelpers)) engine.registerHelper(name, fn);

/** Compiled templates by cache key (`${templateId}:${version}`), oldest first; bounded. */
const MAX_CACHED = 500;
const compiledCache = new Map<string, HandlebarsTemplateDelegate>();

const BUILT_IN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log', 'blockHelperMissing', 'helperMissing']);
const CONTEXT_CHANGING_BLOCKS = new Set(['each', 'with']);

/** In a preview, a variable without a value renders as its own placeholder `{{name}}`. */
function previewHelperMissing(...args: unknown[]): unknown {
  const options = args[args.length - 1] as { name?: string };
  if (args.length === 1 && options?.name) return new engine.SafeString(`{{${options.name}}}`);
  throw new Error(`Missing helper: "${options?.name ?? ''}"`);
}

function compile(source: string): HandlebarsTemplateDelegate {
  return engine.compile(source, { strict: false });
}

function compiled(source: string, cacheKey: string | undefined): { template: HandlebarsTemplateDelegate; usedCache: boolean } {
  if (cacheKey === undefined) return { template: compile(source), usedCache: false };
  const hit = compiledCache.get(cacheKey);
  if (hit) {
    compiledCache.delete(cacheKey);
    compiledCache.set(cacheKey, hit);
    return { template: hit, usedCache: true };
  }
  const template = compile(source);
  compiledCache.set(cacheKey, template);
  while (compiledCache.size > MAX_CACHED) {
    const oldest = compiledCache.keys().next().value as string;
    compiledCache.delete(oldest);
  }
  return { template, usedCache: false };
}

/**
 * Renders a template with the helpers of part 2. Output is HTML-escaped (`{{{raw}}}` stays raw).
 * With `preview`, a variable without a value stays `{{variable}}`. With `cacheKey`, the compiled
 * template is kept and reused (`usedCache` true on a hit).
 */
export function renderTemplate(source: string, variables: Record<string, unknown>, options: RenderOptions = {}): RenderResult {
  const { template, usedCache } = compiled(source, options.cacheKey);
  const runtime: Handlebars.RuntimeOptions = options.preview ? { helpers: { helperMissing: previewHelperMissing } } : {};
  return { output: template(variables ?? {}, runtime), usedCache };
}

/** Empties the compiled-template cache (tests). */
export function clearTemplateCache(): void {
  compiledCache.clear();
}

type Node = hbs.AST.Node;

/** The top-level variable names a template uses (for `variables_used`), in order of first use. */
export function templateVariableNames(source: string): string[] {
  const names = new Set<string>();
  const helpers = new Set([...BUILT_IN_HELPERS, ...Object.keys(templateHelpers)]);

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
    const isHelper = hasArgs || (path.type === 'PathExpression' && path.parts.length === 1 && helpers.has(String(path.parts[0])));
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

  visit(engine.parse(source), 0);
  return [...names];
}
