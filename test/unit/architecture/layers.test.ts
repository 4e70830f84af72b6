import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of docs/decisions.md ("Code layers"), checked on the source itself: the
 * folders of shared/ form no cycle, and handlers reach the store only through services. Once shared/
 * is in wings (shared/README.md, tools/move-to-wings.ts; shared/platform exists), a folder is
 * `<wing>/<folder>` (a wing's own files its `<wing>/.`), and the wings' rules are checked too.
 */

const ROOT = resolve(__dirname, '../../..');
const SHARED = join(ROOT, 'shared');
/** The layout the rules apply to: the wings once shared/platform exists, else one level of folders. */
const IN_WINGS = existsSync(join(SHARED, 'platform'));

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
 * The folder of shared/ a path belongs to ('.' for a file directly in shared/), or undefined outside
 * shared/. In wings: `<wing>/<folder>`, or `<wing>/.` for a file directly in a wing.
 */
function sharedFolder(path: string): string | undefined {
  const rel = relative(SHARED, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  if (parts.length === 1) return '.';
  if (!IN_WINGS) return parts[0];
  return parts.length === 2 ? `${parts[0]}/.` : `${parts[0]}/${parts[1]}`;
}

/** The wing of shared/ a path belongs to, or undefined outside the wings (shared/'s own files included). */
function wingOf(path: string): string | undefined {
  const folder = sharedFolder(path);
  return folder === undefined || folder === '.' ? undefined : folder.split('/')[0];
}

/** Each import of `files` whose target `refuse` names a reason for, as `file imports spec (reason)`. */
function importsRefused(files: string[], refuse: (target: string) => string | undefined): string[] {
  return files.flatMap((file) =>
    relativeImports(file).flatMap((spec) => {
      const reason = refuse(resolve(dirname(file), spec));
      return reason ? [`${relative(ROOT, file)} imports ${spec} (${reason})`] : [];
    }),
  );
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

describe(IN_WINGS ? 'the folders of the wings of shared/ (shared/<wing>/<folder>)' : 'the folders of shared/', () => {
  it('import from no folder that imports them back, directly or through others', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    const found = cycles(graph).map((c) => describeCycle(c, graph));
    expect(found).toEqual([]);
  });
});

// The wings' own rules exist once the wings do: before the move there is nothing they could refuse.
if (IN_WINGS) {
  describe('the wings of shared/', () => {
    it('shared/platform imports no other wing: the platform is underneath everything', () => {
      const platform = sourceFiles(join(SHARED, 'platform'));
      const offending = importsRefused(platform, (target) => {
        const wing = wingOf(target);
        return wing && wing !== 'platform' ? `wing ${wing}` : undefined;
      });
      expect(platform.length).toBeGreaterThan(10);
      expect(offending).toEqual([]);
    });

    it('nothing in shared/ imports composition/ (the wiring sits above it)', () => {
      const composition = join(ROOT, 'composition');
      const offending = importsRefused(sourceFiles(SHARED), (target) => (relative(composition, target).startsWith('..') ? undefined : 'composition/'));
      expect(offending).toEqual([]);
    });
  });
}

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
