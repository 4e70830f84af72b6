import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

/**
 * One gateway per stored thing (docs/decisions.md, "One gateway per stored thing"): only a gateway builds DynamoDB
 * commands. A gateway is recognised by its name: a `*-repository.ts` or `*-gateway.ts` file, a
 * file of shared/platform/store (the table's machinery), or a file of a feature's `store/` sub-part (a
 * large gateway split in files, which only its `*-gateway.ts` module imports).
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

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

/** True for a file in a `store` folder under shared/ (shared/platform/store itself or a feature's store/ sub-part). */
const inStoreFolder = (file: string) => rel(file).startsWith('shared/') && rel(file).split('/').slice(1, -1).includes('store');

/** True for a gateway file, by name. */
const isGateway = (file: string) => /-(repository|gateway)\.ts$/.test(basename(file)) || inStoreFolder(file);

/** A DynamoDB command built in the file (the document client's commands, or the low-level client's). */
const BUILDS_COMMAND = /\bnew\s+(Get|Put|Update|Delete|Query|Scan|BatchWrite|BatchGet|TransactWrite|TransactGet)(Item)?Command\s*\(/;

/**
 * Files that still build commands outside a gateway, each with its reason. The list only shrinks:
 * a file that no longer builds commands must leave it (the test says so).
 */
const NOT_YET_IN_A_GATEWAY: Readonly<Record<string, string>> = {
};

const files = sourceFiles(SHARED);
const buildingCommands = files.filter((file) => BUILDS_COMMAND.test(readFileSync(file, 'utf8')));

describe('DynamoDB commands', () => {
  it('are built only in gateways (`*-repository.ts`, `*-gateway.ts`, shared/platform/store, a gateway\'s store/ part)', () => {
    const outsiders = buildingCommands.filter((file) => !isGateway(file)).map(rel);
    expect(outsiders.filter((file) => !(file in NOT_YET_IN_A_GATEWAY))).toEqual([]);
  });

  it('the list of files not yet in a gateway names only files that still build commands outside one', () => {
    const outsiders = new Set(buildingCommands.filter((file) => !isGateway(file)).map(rel));
    expect(Object.keys(NOT_YET_IN_A_GATEWAY).filter((file) => !outsiders.has(file))).toEqual([]);
  });
});

/** The relative module specifiers a file imports or re-exports. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g), ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g), ...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return specifiers.map((m) => m[1]).filter((s) => s.startsWith('.'));
}

describe("a feature's store/ part", () => {
  it('is imported only by its own gateway module (or within the store/ part), so the rest goes through the gateway', () => {
    const sources = [...files, ...sourceFiles(join(ROOT, 'functions')), ...sourceFiles(join(ROOT, 'test'))];
    const reached = sources.flatMap((file) =>
      relativeImports(file)
        .map((spec) => resolve(dirname(file), spec))
        .filter((target) => inStoreFolder(`${target}.ts`) && !rel(target).startsWith('shared/platform/store/'))
        .filter((target) => {
          const part = dirname(target);
          const ownGateway = dirname(file) === dirname(part) && basename(file).endsWith('-gateway.ts');
          return !ownGateway && dirname(file) !== part;
        })
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(reached).toEqual([]);
  });
});

describe('a conditional write that lost', () => {
  it('is answered by the store\'s one idiom (writtenUnlessConditionFails, conditionalWrite): no file of shared/ catches the error by hand', () => {
    const catching = files
      .filter((file) => !file.endsWith(`${sep}conditional-write.ts`))
      .filter((file) => /isConditionalCheckFailure|ConditionalCheckFailedException/.test(readFileSync(file, 'utf8')))
      .map(rel);
    expect(files.length).toBeGreaterThan(200);
    expect(catching).toEqual([]);
  });
});
