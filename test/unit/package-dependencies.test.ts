import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/**
 * Product code is what esbuild bundles into the Lambda functions: its packages must be in
 * `dependencies` (the AWS SDK too, though the runtime provides it). lib/ and bin/ (the CDK app and
 * the admin CLI) and local/ (the local cloud) run from a checkout with the dev dependencies
 * installed: their packages must be declared, in either list. See docs/decisions.md.
 */
const PRODUCT_FOLDERS = ['shared', 'functions'];
const TOOLING_FOLDERS = ['lib', 'bin', 'local'];

function tsFiles(folder: string): string[] {
  return (fs.readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(folder, f));
}

/** Module specifiers a file loads at run time: imports and re-exports that are not `type`-only, import() and require(). */
function runtimeImports(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The package a bare specifier names (`@aws-sdk/client-sqs`, `nodemailer/lib/x` -> `nodemailer`); undefined for relative and built-in modules. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** `file: package` for every package the files load that `declared` does not hold. */
function undeclared(files: string[], declared: Record<string, string>): string[] {
  return files.flatMap((file) =>
    runtimeImports(fs.readFileSync(path.join(ROOT, file), 'utf8'), file)
      .map(packageOf)
      .filter((p): p is string => p !== undefined && !(p in declared))
      .map((p) => `${file}: ${p}`),
  );
}

describe('runtime imports (the parser the checks below use)', () => {
  it('counts imports, re-exports, import() and require(), not type-only imports', () => {
    const source = [
      "import { a } from 'pkg-a';",
      "import b from '@scope/b/deep';",
      "import type { C } from 'types-only';",
      "import { type D } from 'also-types-only';",
      "export { e } from 'pkg-e';",
      "export type { F } from 'types-f';",
      "const g = await import('pkg-g');",
      "const h = require('pkg-h');",
      "import './relative';",
      "import 'node:fs';",
    ].join('\n');
    expect(runtimeImports(source).map(packageOf).filter(Boolean)).toEqual(['pkg-a', '@scope/b', 'pkg-e', 'pkg-g', 'pkg-h']);
  });

  it('names the package of a subpath and ignores built-in modules', () => {
    expect(packageOf('nodemailer/lib/mail-composer')).toBe('nodemailer');
    expect(packageOf('@aws-sdk/client-sqs')).toBe('@aws-sdk/client-sqs');
    expect(packageOf('crypto')).toBeUndefined();
    expect(packageOf('node:dns/promises')).toBeUndefined();
  });
});

describe('declared dependencies', () => {
  it('every package product code (shared/, functions/) loads is in dependencies', () => {
    expect(undeclared(PRODUCT_FOLDERS.flatMap(tsFiles), pkg.dependencies ?? {})).toEqual([]);
  });

  it('every package the CDK app, the CLI and the local cloud (lib/, bin/, local/) load is declared', () => {
    expect(undeclared(TOOLING_FOLDERS.flatMap(tsFiles), { ...pkg.devDependencies, ...pkg.dependencies })).toEqual([]);
  });
});
