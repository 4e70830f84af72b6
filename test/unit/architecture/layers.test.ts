import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of docs/decisions.md ("Code layers"), checked on the source itself: the
 * folders of shared/ form no cycle, and handlers reach the store only through services.
 */

const ROOT = resolve(__dirname, '../../..');
const SHARED = join(ROOT, 'shared');

/** Every .ts file under a directory. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative module specifiers a file imports or re-exports (type-only imports included: they still couple the folders). */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return specifiers.map((m) => m[1]).filter((s) => s.startsWith('.'));
}

/** The folder of shared/ a path belongs to ('.' for a file directly in shared/), or undefined outside shared/. */
function sharedFolder(path: string): string | undefined {
  const rel = relative(SHARED, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : '.';
}

/** folder -> the folders it imports from, for the folders of shared/. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SHARED)) {
    const from = sharedFolder(file)!;
    if (from === '.') continue;
    for (const spec of relativeImports(file)) {
      const to = sharedFolder(resolve(dirname(file), spec));
      if (!to || to === '.' || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), relative(ROOT, file)]);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** The strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return found;
}

/** Each import between two folders of a component, as `a -> b (file, ...)`. */
function describeCycle(component: string[], graph: Map<string, Map<string, string[]>>): string {
  const lines = component.flatMap((from) =>
    [...(graph.get(from)?.entries() ?? [])].filter(([to]) => component.includes(to)).map(([to, files]) => `  ${from} -> ${to} (${[...new Set(files)].join(', ')})`),
  );
  return `cycle between ${component.join(', ')}:\n${lines.join('\n')}`;
}

describe('the folders of shared/', () => {
  it('import from no folder that imports them back, directly or through others', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    const found = cycles(graph).map((c) => describeCycle(c, graph));
    expect(found).toEqual([]);
  });
});

describe('the handlers of functions/', () => {
  it('call services, never a repository (route modules included)', () => {
    const groups = readdirSync(join(ROOT, 'functions'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(ROOT, 'functions', d.name));
    const routeModules = (dir: string) => {
      try {
        return readdirSync(join(dir, 'routes')).filter((f) => f.endsWith('.ts')).map((f) => join(dir, 'routes', f));
      } catch {
        return [];
      }
    };
    const handlers = groups.flatMap((dir) => [join(dir, 'handler.ts'), ...routeModules(dir)]);
    const offending = handlers.flatMap((file) =>
      relativeImports(file)
        .filter((spec) => /-repository$/.test(spec))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(handlers.length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });
});
