import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Issue 19, part 6: cdk-nag stays clean (test/infra asserts no unsuppressed finding), and every
 * suppression carries its reason in code. This reads lib/ without synthesizing: each suppression
 * object (`{ id: 'AwsSolutions-…' }`) must have a `reason`, and each literal reason must say why
 * in a sentence, not a placeholder.
 */

const LIB = path.join(__dirname, '../../../lib');

interface Suppression {
  file: string;
  rule: string;
  reason?: string;
  shorthand: boolean;
}

function suppressionsIn(file: string): Suppression[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Suppression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const property = (name: string) => node.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
      const id = property('id');
      if (id && ts.isPropertyAssignment(id) && ts.isStringLiteralLike(id.initializer) && id.initializer.text.startsWith('AwsSolutions-')) {
        const reason = property('reason');
        const text = reason && ts.isPropertyAssignment(reason) ? reason.initializer.getText(source) : undefined;
        found.push({ file: path.relative(LIB, file), rule: id.initializer.text, reason: text, shorthand: !!reason && ts.isShorthandPropertyAssignment(reason) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = fs
  .readdirSync(LIB)
  .filter((f) => f.endsWith('.ts'))
  .flatMap((f) => suppressionsIn(path.join(LIB, f)));

describe('cdk-nag suppressions in lib/', () => {
  test('there are some to check (the reader finds them)', () => {
    expect(all.length).toBeGreaterThan(5);
  });

  test('each has a reason, and each reason written out is a sentence of at least 40 characters', () => {
    const bad = all.filter((s) => !(s.shorthand || (s.reason && (!/^['"`]/.test(s.reason) || s.reason.length >= 42))));
    expect(bad).toEqual([]);
  });
});
