/**
 * The HTTP statuses a route's handler can answer, found statically: each route module's `handle` is
 * followed through the functions it calls or passes on, and every status written on the way is
 * collected — a number in a `status:` property (`status: existing ? 200 : 201`, in a service the
 * handler returns as much as in the module), and the status of every `new AppError(...)` reached
 * (the helpers of shared/platform/core/errors.ts, `badRequest` and the rest, are followed like any
 * function, so their statuses come from their own `new AppError(400, ...)`).
 *
 * Files are only parsed (ts.createSourceFile), never type-checked, so the whole API is read in a
 * second or two. The call graph is by name: an identifier in a function's body is resolved to a
 * top-level function, const or class of its own file, or through the file's imports (re-exports
 * and namespace imports followed) to the one its module declares. What a name cannot tell is not
 * followed:
 * - methods called on a value (`deps.db.get(...)`, `services().mailer.send(...)`): the ports of
 *   shared/platform/core/ports.ts are adapters over AWS, which throw their SDK's errors (a 500, or
 *   an error a service catches and turns into an AppError where the service is read), never an
 *   AppError of their own; the composition root that builds them (`services()`) is a boundary, and
 *   route-modules.test.ts checks that neither it nor any adapter reaches a status;
 * - a function passed in as an argument and called by the parameter's name (`refuse(message)`): the
 *   function is followed where it is passed (`parseRequest(schema, body, invalidInput)`).
 * Everything else is an over-approximation: a referenced function counts as called, a class
 * referenced brings all its members, and an error thrown and then caught counts as answered.
 *
 * A status can pass through a parameter: `partnerError(status, ...)` builds `new AppError(status)`
 * and `htmlAnswer(status, ...)` returns `{ status }`; such a function forwards that parameter, and
 * the numbers its callers pass there are the statuses (a parameter's numeric default too).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One status a route's handler can answer, where it is written, and the calls that lead there. */
export interface StatusSite {
  readonly status: number;
  /** `shared/tenancy/partner/partner-projects.ts:29` (relative to the root). */
  readonly at: string;
  /**
   * The functions from `handle` to the one that writes the status, each with where the one before
   * names it: `['handle', 'addTags at functions/leads/routes/add-lead-tags.ts:24', ...]`.
   */
  readonly via: readonly string[];
}

/** A route module's route, as its `defineRoute({...})` names it. */
export interface ModuleRoute {
  readonly file: string;
  /**
   * The `METHOD /path` keys it defines: its path may be a template (`/console/assets/${file}`, a
   * module whose factory defines several routes), each substitution matching one path segment.
   * Undefined when the method or path is neither a string nor a template.
   */
  readonly key: RegExp | undefined;
  /** Every status its `handle` can reach (and its `body`, `query` and `refuse`, which refuse before it runs). */
  readonly statuses: readonly StatusSite[];
}

/** Functions whose bodies are not followed, and why. */
const BOUNDARIES: Readonly<Record<string, string>> = {
  // The composition root: it builds the adapters, whose methods are reached only through ports.
  'composition/services.ts#services': 'builds the ports (adapters over AWS), called by method on the value',
};

const isHttpStatus = (n: number) => Number.isInteger(n) && n >= 100 && n <= 599;

interface Import {
  /** The module's file, resolved when first needed (a file is parsed only when a name of it is). */
  readonly module: () => string | undefined;
  /** The imported name, `*` for a namespace import, `default` for a default import. */
  readonly name: string;
}

interface ParsedFile {
  readonly path: string;
  readonly source: ts.SourceFile;
  readonly declarations: Map<string, ts.Node>;
  readonly imports: Map<string, Import>;
  /** Exported name to local name (`export const x`, `export { a as b }`). */
  readonly exports: Map<string, string>;
  /** Exported name to another module's export (`export { a as b } from './x'`). */
  readonly reexports: Map<string, Import>;
  readonly starExports: (() => string | undefined)[];
}

/** A function, const or class of a file (or a module's `handle`), a node of the call graph. */
interface Decl {
  /** `file#name`, relative to the root (`file#<handle>` for a module's handler). */
  readonly id: string;
  readonly name: string;
  readonly file: ParsedFile;
  readonly node: ts.Node;
  readonly params: readonly ts.ParameterDeclaration[];
}

interface Site {
  readonly status: number;
  readonly node: ts.Node;
  readonly file: ParsedFile;
}

/** What a status expression holds: numbers, and parameters of the enclosing function. */
interface StatusExpr {
  readonly numbers: readonly Site[];
  readonly params: ReadonlySet<number>;
}

interface Call {
  readonly target: Decl;
  readonly args: readonly StatusExpr[];
}

interface Analysis {
  readonly sites: Site[];
  /** Parameters that reach a status directly (`{ status }`, `new AppError(status)`). */
  readonly forwards: Set<number>;
  readonly calls: Call[];
  /** Every declaration referenced (called, constructed or passed on), and where first. */
  readonly refs: { readonly target: Decl; readonly node: ts.Node }[];
}

/** Reads the project's TypeScript files as the call graph needs them, each parsed once. */
export class StatusReach {
  private readonly files = new Map<string, ParsedFile | undefined>();
  private readonly analyses = new Map<string, Analysis>();
  private readonly decls = new Map<ts.Node, Decl>();
  private readonly byId = new Map<string, Decl>();
  private forwardsSettled = false;

  constructor(
    private readonly root: string,
    private readonly read: (path: string) => string | undefined = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined),
  ) {}

  /** The route of a module file and the statuses its handler reaches; undefined when the file defines no route. */
  moduleRoute(path: string, options: { notInto?: readonly string[] } = {}): ModuleRoute | undefined {
    const file = this.file(path);
    if (!file) return undefined;
    const spec = findDefineRoute(file.source);
    if (!spec) return undefined;
    const property = (name: string) => spec.properties.find((p) => p.name !== undefined && propName(p.name) === name);
    const text = (name: string) => {
      const prop = property(name);
      if (!prop || !ts.isPropertyAssignment(prop)) return undefined;
      const value = prop.initializer;
      if (ts.isStringLiteralLike(value)) return escape(value.text);
      if (!ts.isTemplateExpression(value)) return undefined;
      return escape(value.head.text) + value.templateSpans.map((span) => `[^/]+${escape(span.literal.text)}`).join('');
    };
    const method = text('method');
    const routePath = text('path');
    const starts: Decl[] = [];
    for (const name of ['handle', 'body', 'query', 'refuse']) {
      const prop = property(name);
      if (prop && ts.isMethodDeclaration(prop)) starts.push(this.pseudoDecl(file, prop, name, prop.parameters));
      else if (prop && ts.isPropertyAssignment(prop)) {
        const fn = prop.initializer;
        const params = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? fn.parameters : [];
        starts.push(this.pseudoDecl(file, fn, name, params));
      } else if (prop && ts.isShorthandPropertyAssignment(prop)) {
        const decl = this.resolve(file, name);
        if (decl) starts.push(decl);
      }
    }
    return {
      file: this.rel(path),
      key: method && routePath ? new RegExp(`^${method} ${routePath}$`) : undefined,
      statuses: this.reach(starts, new Set(options.notInto)),
    };
  }

  /** Every status reachable from any top-level declaration of a file. */
  fileStatuses(path: string): StatusSite[] {
    const file = this.file(path);
    if (!file) return [];
    return this.reach([...file.declarations].map(([name, node]) => this.declOf(file, name, node)), new Set());
  }

  /**
   * Every status reachable from `starts` (but not through `notInto`). The graph is walked breadth
   * first (so each status's path is a shortest one) before the forwarded parameters are settled,
   * which needs every callee read.
   */
  private reach(starts: readonly Decl[], notInto: ReadonlySet<string>): StatusSite[] {
    const parent = new Map<string, { readonly from: Decl; readonly node: ts.Node } | undefined>(starts.map((start) => [start.id, undefined]));
    const reached = [...starts];
    for (let i = 0; i < reached.length; i++) {
      for (const { target, node } of this.analyse(reached[i]).refs) {
        if (parent.has(target.id) || BOUNDARIES[target.id] || notInto.has(target.id)) continue;
        parent.set(target.id, { from: reached[i], node });
        reached.push(target);
      }
    }
    this.settleForwards();
    const via = (decl: Decl) => {
      const chain: string[] = [];
      for (let d: Decl | undefined = decl; d; ) {
        const edge = parent.get(d.id);
        chain.unshift(edge ? `${d.name} at ${this.where({ node: edge.node, file: edge.from.file })}` : d.name);
        d = edge?.from;
      }
      return chain;
    };
    const found: StatusSite[] = [];
    const add = (site: Site, decl: Decl) => found.push({ status: site.status, at: this.where(site), via: via(decl) });
    for (const decl of reached) {
      const analysis = this.analyse(decl);
      for (const site of analysis.sites) add(site, decl);
      for (const call of analysis.calls) {
        for (const index of this.analyse(call.target).forwards) for (const site of call.args[index]?.numbers ?? []) add(site, decl);
      }
    }
    return found;
  }

  /**
   * Marks the parameters a function forwards to a status through another call (`invalidInput` calls
   * `partnerError(400, ...)`: a number; `reject(status)` calls `partnerError(status, ...)`: a
   * forwarded parameter), until nothing changes. Run once, after every module is analysed.
   */
  private settleForwards(): void {
    if (this.forwardsSettled) return;
    let changed = true;
    while (changed) {
      changed = false;
      for (const [id, analysis] of this.analyses) {
        const decl = this.byId.get(id);
        for (const call of analysis.calls) {
          for (const index of this.analyse(call.target).forwards) {
            for (const param of call.args[index]?.params ?? []) {
              if (analysis.forwards.has(param)) continue;
              analysis.forwards.add(param);
              if (decl) analysis.sites.push(...defaultNumbers(decl, param));
              changed = true;
            }
          }
        }
      }
    }
    this.forwardsSettled = true;
  }

  private analyse(decl: Decl): Analysis {
    const known = this.analyses.get(decl.id);
    if (known) return known;
    const analysis: Analysis = { sites: [], forwards: new Set(), calls: [], refs: [] };
    this.analyses.set(decl.id, analysis);
    // Analysing after the forwards settled (a route read later) settles them again.
    this.forwardsSettled = false;
    const file = decl.file;
    const paramIndex = new Map(decl.params.map((p, i) => [ts.isIdentifier(p.name) ? p.name.text : '', i]));
    const statusExpr = (expr: ts.Expression): StatusExpr => {
      const numbers: Site[] = [];
      const params = new Set<number>();
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node)) return;
        if (ts.isNumericLiteral(node) && isHttpStatus(Number(node.text))) numbers.push({ status: Number(node.text), node, file });
        else if (ts.isIdentifier(node) && paramIndex.has(node.text) && isReference(node)) params.add(paramIndex.get(node.text)!);
        ts.forEachChild(node, visit);
      };
      visit(expr);
      return { numbers, params };
    };
    const sink = (expr: ts.Expression | undefined) => {
      if (!expr) return;
      const { numbers, params } = statusExpr(expr);
      analysis.sites.push(...numbers);
      for (const param of params) {
        if (analysis.forwards.has(param)) continue;
        analysis.forwards.add(param);
        analysis.sites.push(...defaultNumbers(decl, param));
      }
    };
    const seen = new Set<string>();
    const ref = (target: Decl | undefined, node: ts.Node) => {
      if (!target || target.id === decl.id || seen.has(target.id)) return;
      seen.add(target.id);
      analysis.refs.push({ target, node });
    };
    const visit = (node: ts.Node): void => {
      if (isTypeOnly(node)) return;
      if (ts.isPropertyAssignment(node) && propName(node.name) === 'status') sink(node.initializer);
      if (ts.isShorthandPropertyAssignment(node) && node.name.text === 'status') sink(node.name);
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AppError') sink(node.arguments?.[0]);
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const target = this.resolveExpression(file, node.expression);
        if (target) analysis.calls.push({ target, args: (node.arguments ?? []).map(statusExpr) });
      }
      if (ts.isIdentifier(node) && isReference(node)) ref(this.resolve(file, node.text), node);
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && file.imports.get(node.expression.text)?.name === '*') {
        ref(this.resolveExpression(file, node), node);
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.isVariableDeclaration(decl.node) ? (decl.node.initializer ?? decl.node) : decl.node);
    return analysis;
  }

  /** The declaration a callee or reference names: `f`, or `ns.f` of a namespace import. */
  private resolveExpression(file: ParsedFile, expr: ts.Expression): Decl | undefined {
    while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) expr = expr.expression;
    if (ts.isIdentifier(expr)) return this.resolve(file, expr.text);
    if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression)) {
      const imported = file.imports.get(expr.expression.text);
      const module = imported?.name === '*' ? imported.module() : undefined;
      if (module) {
        const target = this.file(module);
        return target && this.resolveExport(target, expr.name.text, new Set());
      }
    }
    return undefined;
  }

  /** A name as a file sees it: its own top-level declaration, or an import. */
  private resolve(file: ParsedFile, name: string): Decl | undefined {
    const local = file.declarations.get(name);
    if (local) return this.declOf(file, name, local);
    const imported = file.imports.get(name);
    const module = imported && imported.name !== '*' ? imported.module() : undefined;
    if (!imported || !module) return undefined;
    const target = this.file(module);
    return target && this.resolveExport(target, imported.name, new Set());
  }

  private resolveExport(file: ParsedFile, name: string, seen: Set<string>): Decl | undefined {
    const key = `${file.path}#${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const local = file.exports.get(name);
    if (local !== undefined) return this.resolve(file, local);
    const re = file.reexports.get(name);
    const module = re?.module();
    if (re && module) {
      const target = this.file(module);
      return target && this.resolveExport(target, re.name, seen);
    }
    for (const star of file.starExports) {
      const module = star();
      const target = module === undefined ? undefined : this.file(module);
      const found = target && this.resolveExport(target, name, seen);
      if (found) return found;
    }
    return undefined;
  }

  private declOf(file: ParsedFile, name: string, node: ts.Node): Decl {
    const known = this.decls.get(node);
    if (known) return known;
    let params: readonly ts.ParameterDeclaration[] = [];
    if (ts.isFunctionDeclaration(node)) params = node.parameters;
    else if (ts.isVariableDeclaration(node) && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) params = init.parameters;
    }
    const rel = this.rel(file.path);
    const decl: Decl = { id: `${rel}#${name}`, name, file, node, params };
    this.decls.set(node, decl);
    this.byId.set(decl.id, decl);
    return decl;
  }

  private pseudoDecl(file: ParsedFile, node: ts.Node, name: string, params: readonly ts.ParameterDeclaration[]): Decl {
    const rel = this.rel(file.path);
    const decl: Decl = { id: `${rel}#<${name}>`, name, file, node, params };
    this.byId.set(decl.id, decl);
    return decl;
  }

  private file(path: string): ParsedFile | undefined {
    if (this.files.has(path)) return this.files.get(path);
    const text = this.read(path);
    const parsed = text === undefined ? undefined : parseFile(path, text, (specifier) => once(() => this.resolveModule(path, specifier)));
    this.files.set(path, parsed);
    return parsed;
  }

  /** A relative specifier's file (`./x` as x.ts or x/index.ts); packages are not followed. */
  private resolveModule(from: string, specifier: string): string | undefined {
    if (!specifier.startsWith('.')) return undefined;
    const base = join(dirname(from), specifier);
    return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => this.exists(candidate));
  }

  private readonly existing = new Map<string, boolean>();

  private exists(path: string): boolean {
    if (this.files.has(path)) return this.files.get(path) !== undefined;
    let known = this.existing.get(path);
    if (known === undefined) this.existing.set(path, (known = this.read(path) !== undefined));
    return known;
  }

  private where(site: Pick<Site, 'node' | 'file'>): string {
    const { line } = site.file.source.getLineAndCharacterOfPosition(site.node.getStart(site.file.source));
    return `${this.rel(site.file.path)}:${line + 1}`;
  }

  private rel(path: string): string {
    return relative(this.root, path).split('\\').join('/');
  }
}

/** The numbers of a parameter's default (`status = 400`), statuses when the caller leaves it out. */
function defaultNumbers(decl: Decl, index: number): Site[] {
  const init = decl.params[index]?.initializer;
  return init && ts.isNumericLiteral(init) && isHttpStatus(Number(init.text)) ? [{ status: Number(init.text), node: init, file: decl.file }] : [];
}

function once<T>(get: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: get() }).v;
}

function parseFile(path: string, text: string, resolveModule: (specifier: string) => () => string | undefined): ParsedFile {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const file: ParsedFile = { path, source, declarations: new Map(), imports: new Map(), exports: new Map(), reexports: new Map(), starExports: [] };
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const isDefault = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (!clause || clause.isTypeOnly) continue;
      const module = resolveModule(statement.moduleSpecifier.text);
      if (clause.name) file.imports.set(clause.name.text, { module, name: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) file.imports.set(bindings.name.text, { module, name: '*' });
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) if (!el.isTypeOnly) file.imports.set(el.name.text, { module, name: (el.propertyName ?? el.name).text });
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const module = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? resolveModule(statement.moduleSpecifier.text) : () => undefined;
      const clause = statement.exportClause;
      if (!clause) {
        file.starExports.push(module);
      } else if (ts.isNamedExports(clause)) {
        for (const el of clause.elements) {
          const local = (el.propertyName ?? el.name).text;
          if (statement.moduleSpecifier) file.reexports.set(el.name.text, { module, name: local });
          else file.exports.set(el.name.text, local);
        }
      }
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      const name = statement.name.text;
      // Of a function's overloads, the one with the body.
      if (!ts.isFunctionDeclaration(statement) || statement.body || !file.declarations.has(name)) file.declarations.set(name, statement);
      if (exported(statement)) file.exports.set(isDefault(statement) ? 'default' : name, name);
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        file.declarations.set(d.name.text, d);
        if (exported(statement)) file.exports.set(d.name.text, d.name.text);
      }
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      file.exports.set('default', statement.expression.text);
    }
  }
  return file;
}

/** The object passed to the file's `defineRoute(...)`. */
function findDefineRoute(source: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineRoute' && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
      found = node.arguments[0];
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function propName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

/** Types, interfaces and type-only forms: nothing in them runs. */
function isTypeOnly(node: ts.Node): boolean {
  return ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node);
}

/** Whether an identifier names a value (not a property, a declaration's own name, or a label). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (ts.isPropertyAccessExpression(parent)) return parent.expression === node;
  if (ts.isQualifiedName(parent)) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (ts.isBindingElement(parent)) return false;
  if (ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) return parent.name !== node;
  if (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isFunctionExpression(parent) || ts.isClassDeclaration(parent) || ts.isClassExpression(parent) || ts.isEnumMember(parent)) return parent.name !== node;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isJsxAttribute(parent)) return false;
  return true;
}
