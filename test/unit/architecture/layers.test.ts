import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of shared/README.md and docs/architecture.md, checked on the source itself:
 * every file of shared/ sits in a wing; a wing imports only the wings below it (the layers of
 * shared/README.md's table); no folder imports one that imports it back (type imports count: they
 * couple the folders as much); the wiring (composition/) sits above shared/ and nothing in shared/
 * reaches up to it; handlers take their scope from composition/ and reach the store only through
 * services.
 */

const ROOT = resolve(__dirname, '../../..');
const SHARED = join(ROOT, 'shared');
const COMPOSITION = join(ROOT, 'composition');

/** The wings, bottom layer first, as shared/README.md's table numbers them (the one place they are listed). */
function wingsBottomUp(): string[] {
  const rows = [...readFileSync(join(SHARED, 'README.md'), 'utf8').matchAll(/^\|\s*(\d+)\s*\|\s*\[([a-z-]+)\]\(/gm)];
  return rows.sort((a, b) => Number(a[1]) - Number(b[1])).map((m) => m[2]);
}

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

/**
 * The folder of shared/ a path belongs to: `<wing>/<folder>`, `<wing>/.` for a wing's own files
 * (the mail pipeline's stages), `.` for a file directly in shared/; undefined outside shared/.
 */
function sharedFolder(path: string): string | undefined {
  const rel = relative(SHARED, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  if (parts.length === 1) return '.';
  return parts.length === 2 ? `${parts[0]}/.` : `${parts[0]}/${parts[1]}`;
}

/** The wing of a folder of sharedFolder's form. */
const wingOf = (folder: string): string => folder.split('/')[0];

/** folder -> the folders it imports from (with the importing files), for every file of shared/. */
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

/** The imports of the graph that go up: from a wing to a wing above it in `wings` (bottom first). */
function upwardImports(graph: Map<string, Map<string, string[]>>, wings: string[]): string[] {
  return [...graph.entries()].flatMap(([from, edges]) =>
    [...edges.entries()]
      .filter(([to]) => wings.indexOf(wingOf(to)) > wings.indexOf(wingOf(from)))
      .map(([to, files]) => `${from} -> ${to} (${[...new Set(files)].join(', ')})`),
  );
}

/** Each relative import of `files` that resolves under `target`, as `file imports spec`. */
function importsInto(files: string[], target: string): string[] {
  return files.flatMap((file) =>
    relativeImports(file)
      .filter((spec) => !relative(target, resolve(dirname(file), spec)).startsWith('..'))
      .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
  );
}

describe('the wings of shared/', () => {
  it('hold every file of shared/: its folders are the wings of its README, its own files only that README', () => {
    const wings = wingsBottomUp();
    expect(wings[0]).toBe('platform');
    expect(wings.length).toBeGreaterThanOrEqual(5);
    const entries = readdirSync(SHARED, { withFileTypes: true });
    expect(entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()).toEqual([...wings].sort());
    expect(entries.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual(['README.md']);
    for (const wing of wings) expect(existsSync(join(SHARED, wing, 'README.md'))).toBe(true);
  });

  it('import only the wings below them (the layers of shared/README.md): the platform none', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(20);
    expect(upwardImports(graph, wingsBottomUp())).toEqual([]);
  });

  it('the layer check sees an import that goes up, through a type import too', () => {
    const graph = new Map([['platform/store', new Map([['audience/leads', ['shared/platform/store/a.ts']]])]]);
    expect(upwardImports(graph, ['platform', 'audience'])).toEqual(['platform/store -> audience/leads (shared/platform/store/a.ts)']);
    expect(upwardImports(graph, ['audience', 'platform'])).toEqual([]);
  });
});

describe('the folders of shared/ (<wing>/<folder>)', () => {
  it('import from no folder that imports them back, directly or through others (type imports counted)', () => {
    const graph = folderGraph();
    const found = cycles(graph).map((c) => describeCycle(c, graph));
    expect(found).toEqual([]);
  });

  it('the check sees a cycle through a type import', () => {
    const graph = new Map([
      ['identities/domains', new Map([['platform/core', ['shared/identities/domains/a.ts']]])],
      ['platform/core', new Map([['identities/domains', ['shared/platform/core/dependencies.ts']]])],
    ]);
    expect(cycles(graph)).toEqual([['identities/domains', 'platform/core']]);
    expect(relativeImports(join(SHARED, 'platform/core/dependencies.ts'))).toContain('./ports');
  });

  it('never import the wiring above them (composition/)', () => {
    expect(importsInto(sourceFiles(SHARED), COMPOSITION)).toEqual([]);
  });
});

describe('the wiring (composition/)', () => {
  it('is where every function, the local cloud, the tests and the benchmarks get their services', () => {
    const outside = ['functions', 'local', 'test', 'bench', 'lib', 'scripts', 'composition'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(outside.length).toBeGreaterThan(100);
    expect(importsInto(outside, join(SHARED, 'container'))).toEqual([]);
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
