import Handlebars from 'handlebars';
import { AppError, badRequest } from '../../platform/core/errors';
import { templateHelpers } from './helpers';

/** The error code of a template that does not compile (400). */
export const TEMPLATE_INVALID_CODE = 'TEMPLATE_INVALID';

/** A place in a template, 1-based, as editors count. */
export interface TemplatePosition {
  line: number;
  column: number;
}

/**
 * The stable 400 of a template that does not compile:
 * `Template syntax error in <field> at line <l>, column <c>: <reason>`, with `code`, `field`,
 * `line` and `column` beside it.
 */
export function templateSyntaxError(field: string, reason: string, at: TemplatePosition): AppError {
  return badRequest(`Template syntax error in ${field} at line ${at.line}, column ${at.column}: ${reason}`, TEMPLATE_INVALID_CODE, {
    code: TEMPLATE_INVALID_CODE,
    field,
    line: at.line,
    column: at.column,
  });
}

/** Built-in block helpers we keep, with the number of arguments each needs. */
const BUILT_IN_ARITY: Readonly<Record<string, number>> = { if: 1, unless: 1, each: 1, with: 1, lookup: 2 };

/** Every helper a template may call: part 2's and the kept built-ins. */
export const KNOWN_HELPERS: ReadonlySet<string> = new Set([...Object.keys(BUILT_IN_ARITY), ...Object.keys(templateHelpers)]);

/** The parser's lexer, read right after a failed parse (synchronous, so it still holds that parse's state). */
const lexer = (Handlebars as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number; last_line: number; last_column: number } } } }).Parser.lexer;

/** Where a Handlebars parse failed, and its reason without the ASCII-art excerpt. */
function parseFailure(error: Error): { reason: string; at: TemplatePosition } {
  const located = error as Error & { lineNumber?: number; column?: number };
  if (typeof located.lineNumber === 'number' && typeof located.column === 'number') {
    // Handlebars' own exceptions ("foo doesn't match bar - 1:3") carry the node's place.
    return { reason: error.message.replace(/ - \d+:\d+$/, ''), at: { line: located.lineNumber, column: located.column + 1 } };
  }
  const loc = lexer.yylloc ?? { first_line: 1, first_column: 0, last_line: 1, last_column: 0 };
  const lines = error.message.split('\n');
  if (lines[0].startsWith('Lexical error')) {
    // The unrecognised text starts where the last token recognised ended.
    return { reason: 'Unrecognized text', at: { line: loc.last_line, column: loc.last_column + 1 } };
  }
  return { reason: lines[lines.length - 1], at: { line: loc.first_line, column: loc.first_column + 1 } };
}

/** The 1-based place of a character offset in `source`. */
function positionOf(source: string, offset: number): TemplatePosition {
  const before = source.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

type Node = hbs.AST.Node;
type Call = hbs.AST.MustacheStatement | hbs.AST.SubExpression | hbs.AST.BlockStatement;

const at = (node: Node): TemplatePosition => ({ line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 });

/** The name a call starts with (`each`, `formatDate`), or undefined for a longer path (`a.b`) or data (`@x`). */
function headName(call: Call): string | undefined {
  const head = call.path as Node;
  if (head.type === 'PathExpression') {
    const path = head as hbs.AST.PathExpression;
    return !path.data && path.depth === 0 && path.parts.length === 1 && path.original === path.parts[0] ? String(path.parts[0]) : undefined;
  }
  if (head.type === 'StringLiteral' || head.type === 'NumberLiteral' || head.type === 'BooleanLiteral') return String((head as hbs.AST.StringLiteral).value);
  return undefined;
}

/**
 * Refuses what the service does not run: partials and decorators (a template is one document),
 * `{{log}}` (it would write tenant text to our logs), calls of unknown helpers (Handlebars would
 * throw at send time) and built-in helpers called with the wrong number of arguments.
 */
function checkCall(call: Call, field: string): void {
  const name = headName(call);
  const argCount = call.params.length + (call.hash?.pairs.length ? 1 : 0);
  const isCall = argCount > 0;
  if (name === 'log') throw templateSyntaxError(field, 'the log helper is not available', at(call));
  if (name !== undefined && name in BUILT_IN_ARITY) {
    if (call.params.length !== BUILT_IN_ARITY[name]) {
      const needs = BUILT_IN_ARITY[name] === 1 ? 'exactly one argument' : `exactly ${BUILT_IN_ARITY[name]} arguments`;
      throw templateSyntaxError(field, `${name} needs ${needs}`, at(call));
    }
    return;
  }
  if (isCall && (name === undefined || !KNOWN_HELPERS.has(name))) {
    throw templateSyntaxError(field, `unknown helper "${name ?? (call.path as hbs.AST.PathExpression).original ?? ''}"`, at(call));
  }
  if (name === 'helperMissing' || name === 'blockHelperMissing') throw templateSyntaxError(field, `unknown helper "${name}"`, at(call));
}

function walk(node: Node | undefined | null, field: string): void {
  if (!node) return;
  switch (node.type) {
    case 'Program':
      for (const child of (node as hbs.AST.Program).body) walk(child, field);
      return;
    case 'PartialStatement':
    case 'PartialBlockStatement':
      throw templateSyntaxError(field, 'partials ({{> name}}) are not supported', at(node));
    case 'Decorator':
    case 'DecoratorBlock':
      throw templateSyntaxError(field, 'decorators ({{* name}}) are not supported', at(node));
    case 'MustacheStatement':
    case 'SubExpression':
    case 'BlockStatement': {
      const call = node as Call;
      checkCall(call, field);
      for (const param of call.params) walk(param, field);
      for (const pair of call.hash?.pairs ?? []) walk(pair.value, field);
      if (node.type === 'BlockStatement') {
        walk((node as hbs.AST.BlockStatement).program, field);
        walk((node as hbs.AST.BlockStatement).inverse, field);
      }
      return;
    }
    default:
      return;
  }
}

/**
 * Parses a template and checks that the service can run it; a template that cannot be run is the
 * 400 of `templateSyntaxError`, with the parser's reason and the place.
 */
export function parseTemplate(source: string, field: string): hbs.AST.Program {
  const nul = source.indexOf('\u0000');
  // Handlebars' lexer uses NUL as its end marker; say so plainly instead of "Unrecognized text".
  if (nul >= 0) throw templateSyntaxError(field, 'the NUL character (U+0000) is not allowed', positionOf(source, nul));
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(source);
  } catch (error) {
    const { reason, at: where } = parseFailure(error as Error);
    throw templateSyntaxError(field, reason, where);
  }
  walk(ast, field);
  return ast;
}
