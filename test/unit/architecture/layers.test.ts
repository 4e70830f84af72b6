import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of docs/decisions.md ("Code layers"), checked on the source itself: the
 * folders of shared/ form no cycle (type imports count: they couple the folders as much), the wiring
 * (composition/) sits above shared/ and nothing in shared/ reaches up to it, and handlers reach the
 * store only through services.
 */

const ROOT = resolve(__dirname, '../../..');
const SHARED = join(ROOT, 'shared');
const COMPOSITION = join(ROOT, 'composition');

/**
 * The files directly in shared/ (config, dependencies, errors, ports, ...) form one node of the
 * graph, named after the folder they are to move into (docs: WINGS.md, shared/platform/core/): the
 * platform underneath every feature, which must import no feature folder back.
 */
const ROOT_FILES = 'core (shared/*.ts)';

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

/** The folder of shared/ a path belongs to (ROOT_FILES for a file directly in shared/), or undefined outside shared/. */
function sharedFolder(path: string): string | undefined {
  const rel = relative(SHARED, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : ROOT_FILES;
}

/** folder -> the folders it imports from, for every file of shared/ (its root files included). */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SHARED)) {
    const from = sharedFolder(file)!;
    for (const spec of relativeImports(file)) {
      const to = sharedFolder(resolve(dirname(file), spec));
      if (!to || to === from) continue;
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

/** Each relative import of `files` that resolves under `target`, as `file imports spec`. */
function importsInto(files: string[], target: string): string[] {
  return files.flatMap((file) =>
    relativeImports(file)
      .filter((spec) => !relative(target, resolve(dirname(file), spec)).startsWith('..'))
      .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
  );
}

describe('the folders of shared/', () => {
  it('import from no folder that imports them back, directly or through others (its root files as one folder, type imports counted)', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(graph.has(ROOT_FILES)).toBe(true);
    const found = cycles(graph).map((c) => describeCycle(c, graph));
    expect(found).toEqual([]);
  });

  it('the check sees a cycle through a type import, and one through the root files', () => {
    const graph = new Map([
      ['domains', new Map([[ROOT_FILES, ['shared/domains/a.ts']]])],
      [ROOT_FILES, new Map([['domains', ['shared/dependencies.ts']]])],
    ]);
    expect(cycles(graph)).toEqual([[ROOT_FILES, 'domains'].sort()]);
    expect(relativeImports(join(ROOT, 'shared/dependencies.ts'))).toContain('./ports');
  });

  it('the root files (the platform underneath) import no feature folder', () => {
    const platform = new Set([ROOT_FILES, 'store', 'http', 'auth', 'security', 'adapters', 'cache', 'idempotency', 'queue-worker', 'metrics', 'openapi']);
    const rootEdges = [...(folderGraph().get(ROOT_FILES)?.entries() ?? [])].filter(([to]) => !platform.has(to)).map(([to, files]) => `${to} (${files.join(', ')})`);
    expect(rootEdges).toEqual([]);
  });

  it('never import the wiring above them (composition/)', () => {
    expect(importsInto(sourceFiles(SHARED), COMPOSITION)).toEqual([]);
  });
});

describe('the wiring (composition/)', () => {
  it('is where every function, the local cloud, the tests and the benchmarks get their services: shared/ builds none', () => {
    const outside = ['functions', 'local', 'test', 'bench', 'lib', 'scripts', 'composition'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(outside.length).toBeGreaterThan(100);
    expect(importsInto([...outside, ...sourceFiles(SHARED)], join(SHARED, 'container'))).toEqual([]);
    expect(existsSync(join(SHARED, 'container.ts'))).toBe(false);
    expect(existsSync(join(COMPOSITION, 'services.ts'))).toBe(true);
  });
});

describe('the handlers of functions/', () => {
  it('take their scope from composition/: no handler or route module (no file of functions/) builds a feature\'s batch objects or flushes them', () => {
    const files = sourceFiles(join(ROOT, 'functions'));
    const handlers = files.filter((file) => relative(join(ROOT, 'functions'), file).split(sep).length === 2 && file.endsWith(`${sep}handler.ts`));
    const routeModules = files.filter((file) => dirname(file).endsWith(`${sep}routes`));
    const offending = files.filter((file) => /\bnew (CounterBatch|CampaignCounterBatch|MailMetrics)\b|\bflush(Campaign)?Counters\(/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(handlers.length).toBeGreaterThan(30);
    expect(routeModules.length).toBeGreaterThan(30);
    expect(offending).toEqual([]);
  });

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
