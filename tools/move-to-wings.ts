/**
 * Moves shared/ into its wings (WINGS.md): `git mv` of each mapped folder and root file, then every
 * relative specifier, `__dirname` path and repo-relative `shared/...` path that names a moved file
 * is rewritten, and each wing gets its README (tools/wing-readmes/<wing>.md).
 *
 *   npx tsx tools/move-to-wings.ts            move and rewrite
 *   npx tsx tools/move-to-wings.ts --dry-run  print what would move and be rewritten, change nothing
 *   npx tsx tools/move-to-wings.ts --force    run on a tree with uncommitted changes (they get staged too)
 *
 * Driven by MOVES below, not by a list of today's files: a mapped folder that does not exist is
 * skipped, a root file of shared/ the mapping does not know stops the script before it changes
 * anything. Run it on a clean tree; `git diff --stat -M` afterwards shows the result.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** WINGS.md's table: folder of shared/ -> its new folder (inner structure kept). */
export const FOLDER_MOVES: Readonly<Record<string, string>> = {
  // platform
  'shared/store': 'shared/platform/store',
  'shared/http': 'shared/platform/http',
  'shared/auth': 'shared/platform/auth',
  'shared/security': 'shared/platform/security',
  'shared/adapters': 'shared/platform/adapters',
  'shared/cache': 'shared/platform/cache',
  'shared/idempotency': 'shared/platform/idempotency',
  'shared/queue-worker': 'shared/platform/queue-worker',
  // the tenants every request is scoped by: what authentication reads
  'shared/projects': 'shared/platform/projects',
  'shared/organizations': 'shared/platform/organizations',
  // the API's document, drawn from every wing's route modules and webhook payloads: above shared/
  'shared/openapi': 'composition/openapi',
  // mail-pipeline
  'shared/sending': 'shared/mail-pipeline/sending',
  'shared/batches': 'shared/mail-pipeline/batches',
  'shared/scheduling': 'shared/mail-pipeline/scheduling',
  'shared/mail': 'shared/mail-pipeline/mail',
  'shared/templates': 'shared/mail-pipeline/templates',
  'shared/tracking': 'shared/mail-pipeline/tracking',
  'shared/unsubscribe': 'shared/mail-pipeline/unsubscribe',
  'shared/suppression': 'shared/mail-pipeline/suppression',
  'shared/quota': 'shared/mail-pipeline/quota',
  'shared/activity': 'shared/mail-pipeline/activity',
  'shared/delivery': 'shared/mail-pipeline/delivery',
  'shared/metrics': 'shared/mail-pipeline/metrics',
  'shared/events': 'shared/mail-pipeline/events',
  'shared/inbound': 'shared/mail-pipeline/inbound',
  // audience
  'shared/audience': 'shared/audience/leads',
  'shared/imports': 'shared/audience/imports',
  // marketing
  'shared/campaigns': 'shared/marketing/campaigns',
  'shared/campaign-reports': 'shared/marketing/campaign-reports',
  // identities
  'shared/domains': 'shared/identities/domains',
  'shared/pages': 'shared/identities/pages',
  'shared/stats': 'shared/identities/stats',
  // notifications
  'shared/webhooks': 'shared/notifications/webhooks',
  // tenancy
  'shared/partner': 'shared/tenancy/partner',
  'shared/project-settings': 'shared/tenancy/project-settings',
  'shared/console': 'shared/tenancy/console',
};

/**
 * Single files that leave their folder for another wing (taken before their folder moves): the
 * vocabulary of mail and the public pages' frame sit under every wing that uses them.
 */
export const FILE_MOVES: Readonly<Record<string, string>> = {
  'shared/mail/addresses.ts': 'shared/platform/mail/addresses.ts',
  'shared/mail/mime.ts': 'shared/platform/mail/mime.ts',
  'shared/mail/escape-html.ts': 'shared/platform/mail/escape-html.ts',
  'shared/mail/html-text.ts': 'shared/platform/mail/html-text.ts',
  'shared/mail/header-policy.ts': 'shared/platform/mail/header-policy.ts',
  // which of a project's webhook URLs an event goes to: read by the pipeline (inbound) and the webhooks
  'shared/webhooks/routing.ts': 'shared/platform/projects/webhook-routing.ts',
  'shared/pages/page-layout.ts': 'shared/platform/pages/page-layout.ts',
  'shared/pages/page-headers.ts': 'shared/platform/pages/page-headers.ts',
  'shared/events/events.ts': 'shared/platform/core/events.ts',
  'shared/events/queue-event-publisher.ts': 'shared/platform/adapters/queue-event-publisher.ts',
};

/** Root files of shared/ that move to shared/platform/core/. */
export const CORE_FILES: readonly string[] = [
  'config.ts',
  'dependencies.ts',
  'errors.ts',
  'function-access.ts',
  'json-inspection.ts',
  'lambda-handler.ts',
  'logger.ts',
  'ports.ts',
  'queues.ts',
  'reserved-keys.ts',
  'routes.ts',
  'secrets.ts',
  'validate.ts',
  'zod.ts',
];
const CORE = 'shared/platform/core';

/** Root files of shared/ that stay: README.md, the wings' table. */
const STAY_AT_ROOT = new Set(['README.md']);

/** The wings, each with a README in tools/wing-readmes/. */
export const WINGS = ['platform', 'mail-pipeline', 'audience', 'marketing', 'identities', 'notifications', 'tenancy'] as const;

/** Where source files live (relative specifiers are rewritten in these). */
const SOURCE_DIRS = ['shared', 'functions', 'lib', 'local', 'bin', 'test', 'bench', 'scripts', 'tools', 'console', 'clients', 'composition', 'types'];
const SKIP_DIRS = /(^|\/)(node_modules|cdk\.out|\.local|dist)(\/|$)/;
const CODE = /\.(ts|tsx|js|mjs|cjs)$/;
/** Data and generated files whose `shared/...` mentions are history or output, not paths to follow. */
const NOT_TEXT_REWRITTEN = [/^bench\/results.*\.json$/, /^package-lock\.json$/, /^openapi\//, /^clients\/typescript\/src\/schema\.d\.ts$/];
const CONFIG_FILES = /^(package\.json|tsconfig(\..*)?\.json|console\/tsconfig\.json|cdk\.json|\.ci\/.*|.*\.sh|.*\.ya?ml)$/;

const dryRun = process.argv.includes('--dry-run');

function fail(message: string): never {
  console.error(`move-to-wings: ${message}`);
  process.exit(1);
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

/** One move this run performs: repo-relative posix paths. */
interface Move {
  readonly from: string;
  readonly to: string;
  readonly kind: 'folder' | 'file';
}

/** The moves to perform on this tree; stops on an unknown root file or a move whose target is taken. */
function plannedMoves(): Move[] {
  const shared = join(ROOT, 'shared');
  const rootFiles = readdirSync(shared, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name);
  const unknown = rootFiles.filter((name) => !CORE_FILES.includes(name) && !STAY_AT_ROOT.has(name));
  if (unknown.length > 0) {
    fail(`root file(s) of shared/ not in the mapping: ${unknown.map((n) => `shared/${n}`).join(', ')}. Add each to CORE_FILES or STAY_AT_ROOT (tools/move-to-wings.ts), or move it into a folder, then run again.`);
  }
  const moves: Move[] = [];
  for (const [from, to] of Object.entries(FILE_MOVES)) {
    if (!existsSync(join(ROOT, from))) continue;
    if (existsSync(join(ROOT, to))) fail(`${to} already exists and ${from} too.`);
    moves.push({ from, to, kind: 'file' });
  }
  for (const [from, to] of Object.entries(FOLDER_MOVES)) {
    const source = join(ROOT, from);
    if (!existsSync(source) || !statSync(source).isDirectory()) continue;
    if (existsSync(join(ROOT, to))) {
      // shared/audience -> shared/audience/leads: once moved, the source is the wing itself.
      if (to.startsWith(`${from}/`)) continue;
      fail(`${to} already exists and ${from} too: merge them by hand, then run again.`);
    }
    moves.push({ from, to, kind: 'folder' });
  }
  for (const name of CORE_FILES) {
    if (!rootFiles.includes(name)) continue;
    const to = `${CORE}/${name}`;
    if (existsSync(join(ROOT, to))) fail(`${to} already exists and shared/${name} too.`);
    moves.push({ from: `shared/${name}`, to, kind: 'file' });
  }
  return moves;
}

/**
 * Where a repo-relative posix path (file, folder, or a module path without extension) lives after
 * the moves; unchanged when nothing moved it.
 */
function mapper(moves: readonly Move[]): (path: string) => string {
  const folders = moves.filter((m) => m.kind === 'folder').sort((a, b) => b.from.length - a.from.length);
  const files = moves.filter((m) => m.kind === 'file');
  return (path) => {
    // A file that leaves its folder is found before the folder's own move.
    for (const m of files) {
      const stem = m.from.replace(/\.ts$/, '');
      const stemTo = m.to.replace(/\.ts$/, '');
      if (path === stem) return stemTo;
      if (path.startsWith(`${stem}.`)) return stemTo + path.slice(stem.length);
    }
    for (const m of folders) {
      if (path === m.from) return m.to;
      if (path.startsWith(`${m.from}/`)) return m.to + path.slice(m.from.length);
    }
    return path;
  };
}

/** The repository's files (tracked and untracked, not ignored), repo-relative posix paths. */
function repoFiles(): string[] {
  return git('ls-files', '-co', '--exclude-standard', '-z')
    .split('\0')
    .filter((f) => f && !SKIP_DIRS.test(f) && existsSync(join(ROOT, f)));
}

function isSource(file: string): boolean {
  return CODE.test(file) && (SOURCE_DIRS.some((d) => file.startsWith(`${d}/`)) || !file.includes('/'));
}

function isText(file: string): boolean {
  // The mapping itself names the old paths, and the READMEs name the new ones.
  if (file === 'tools/move-to-wings.ts' || file.startsWith('tools/wing-readmes/')) return false;
  if (NOT_TEXT_REWRITTEN.some((re) => re.test(file))) return false;
  return isSource(file) || file.endsWith('.md') || CONFIG_FILES.test(file);
}

const counts = { specifiers: 0, dirnamePaths: 0, pathMentions: 0, files: 0 };

/** A relative path from `fromDir` to `target` (both repo-relative posix), in specifier form. */
function relativeSpecifier(fromDir: string, target: string): string {
  const rel = posix.relative(fromDir, target) || '.';
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Rewrites the relative module specifiers of `text` (the file moves from oldPath to newPath). */
function rewriteSpecifiers(text: string, oldPath: string, newPath: string, map: (p: string) => string): string {
  const oldDir = posix.dirname(oldPath);
  const newDir = posix.dirname(newPath);
  const fix = (spec: string): string => {
    if (!spec.startsWith('./') && !spec.startsWith('../') && spec !== '.' && spec !== '..') return spec;
    const target = posix.normalize(posix.join(oldDir, spec));
    const moved = map(target);
    if (moved === target && oldDir === newDir) return spec;
    let next = relativeSpecifier(newDir, moved);
    if (spec.endsWith('/') && !next.endsWith('/')) next += '/';
    if (next !== spec) counts.specifiers++;
    return next;
  };
  const patterns = [
    // import/export ... from '...'
    /(\bfrom\s*)(['"])([^'"\n]+)\2/g,
    // import '...' (side effect)
    /((?:^|[\n;])\s*import\s*)(['"])([^'"\n]+)\2/g,
    // import('...'), require('...'), require.resolve('...'), jest.mock('...') and kin
    /(\b(?:import|require|require\.resolve|jest\.(?:mock|doMock|unmock|dontMock|requireActual|requireMock|setMock|createMockFromModule))\(\s*)(['"`])([^'"`\n$]+)\2/g,
  ];
  let out = text;
  for (const re of patterns) out = out.replace(re, (_all, head: string, quote: string, spec: string) => `${head}${quote}${fix(spec)}${quote}`);
  return out;
}

/** Rewrites `join(__dirname, '<literal>', ...)` / `resolve(...)` paths whose target or whose file moved. */
function rewriteDirnamePaths(text: string, oldPath: string, newPath: string, map: (p: string) => string): string {
  const oldDir = posix.dirname(oldPath);
  const newDir = posix.dirname(newPath);
  return text.replace(/(\b(?:join|resolve)\(\s*__dirname)((?:\s*,\s*'[^'\n]*')+)/g, (all, head: string, args: string) => {
    const parts = [...args.matchAll(/'([^'\n]*)'/g)].map((m) => m[1]);
    const target = posix.normalize(posix.join(oldDir, ...parts));
    const moved = map(target);
    if (moved === target && oldDir === newDir) return all;
    const rel = posix.relative(newDir, moved) || '.';
    if (rel === posix.normalize(posix.join(...parts))) return all;
    counts.dirnamePaths++;
    return `${head}, '${rel}'`;
  });
}

/**
 * Rewrites repo-relative mentions of moved paths: `shared/store/keys.ts` in strings, comments and
 * docs, `join(ROOT, 'shared', 'openapi')`-style segments. In docs a `../shared/...` link counts too;
 * in code a `../shared/...` is a specifier (rewritten above), so only bare mentions are touched.
 */
function rewritePathMentions(text: string, file: string, map: (p: string) => string): string {
  const isDoc = file.endsWith('.md');
  const mention = isDoc ? /(?<![\w.-])(?<![\w-]\/)shared\/[\w.-]+(?:\/[\w.-]+)*/g : /(?<![\w./-])shared\/[\w.-]+(?:\/[\w.-]+)*/g;
  let out = text.replace(mention, (found) => {
    // A sentence's full stop is not part of the path.
    const path = found.replace(/\.+$/, '');
    const moved = map(path);
    if (moved !== path) counts.pathMentions++;
    return moved + found.slice(path.length);
  });
  out = out.replace(/(['"])shared\1(\s*,\s*)(['"])([\w.-]+)\3/g, (all, q: string, sep: string, q2: string, segment: string) => {
    const moved = map(`shared/${segment}`);
    if (moved === `shared/${segment}`) return all;
    counts.pathMentions++;
    return moved
      .split('/')
      .map((s) => `${q}${s}${q}`)
      .join(sep);
  });
  return out;
}

/** Folders directly in shared/ that are neither a wing nor mapped: they stay where they are. */
function unmappedFolders(): string[] {
  return readdirSync(join(ROOT, 'shared'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !(WINGS as readonly string[]).includes(e.name) && !(`shared/${e.name}` in FOLDER_MOVES))
    .map((e) => `shared/${e.name}`);
}

function main(): void {
  if (!dryRun && !process.argv.includes('--force') && git('status', '--porcelain').trim() !== '') {
    fail('the working tree has changes: commit them first (the moves are staged with `git add -u`), or pass --force.');
  }
  const moves = plannedMoves();
  if (moves.length === 0) {
    console.log('move-to-wings: nothing to move (already in wings?)');
  }
  const map = mapper(moves);

  // Every rewrite is computed on the tree before the moves (old paths), then written at the new ones.
  const rewritten = new Map<string, string>();
  for (const file of repoFiles()) {
    if (!isText(file)) continue;
    const before = readFileSync(join(ROOT, file), 'utf8');
    const target = map(file);
    let after = before;
    if (isSource(file)) {
      after = rewriteSpecifiers(after, file, target, map);
      after = rewriteDirnamePaths(after, file, target, map);
    }
    after = rewritePathMentions(after, file, map);
    if (after !== before) {
      rewritten.set(target, after);
      counts.files++;
    }
  }

  const unmapped = unmappedFolders();
  if (unmapped.length > 0) console.log(`not in the mapping, left where they are: ${unmapped.join(', ')} (add them to FOLDER_MOVES to move them)`);

  if (dryRun) {
    for (const m of moves) console.log(`would move ${m.from} -> ${m.to}`);
    console.log(`would rewrite ${counts.files} files (${counts.specifiers} specifiers, ${counts.dirnamePaths} __dirname paths, ${counts.pathMentions} path mentions)`);
    return;
  }

  let filesMoved = 0;
  // A single file leaves its folder before that folder moves, and lands after the folder it joins
  // has moved: it waits under a temporary name in between.
  const parked = new Map<Move, string>();
  for (const m of moves.filter((move) => move.from in FILE_MOVES)) {
    const temporary = `${m.from}.moving-to-wings`;
    git('mv', m.from, temporary);
    parked.set(m, temporary);
  }
  for (const m of moves) {
    filesMoved += m.kind === 'folder' ? git('ls-files', '--', m.from).split('\n').filter(Boolean).length : 1;
    if (parked.has(m)) continue;
    mkdirSync(dirname(join(ROOT, m.to)), { recursive: true });
    if (m.to.startsWith(`${m.from}/`)) {
      // A folder into its own subfolder (audience -> audience/leads): through a temporary name.
      const temporary = `${m.from}.moving-to-wings`;
      git('mv', m.from, temporary);
      mkdirSync(join(ROOT, m.from), { recursive: true });
      git('mv', temporary, m.to);
    } else {
      git('mv', m.from, m.to);
    }
  }
  for (const [m, temporary] of parked) {
    const from = mapper(moves.filter((move) => move.kind === 'folder'))(temporary);
    mkdirSync(dirname(join(ROOT, m.to)), { recursive: true });
    git('mv', from, m.to);
  }
  for (const [file, text] of rewritten) writeFileSync(join(ROOT, file), text);

  const readmes: string[] = [];
  const readmeDir = join(ROOT, 'tools', 'wing-readmes');
  for (const wing of WINGS) {
    const source = join(readmeDir, `${wing}.md`);
    if (existsSync(join(ROOT, 'shared', wing)) && existsSync(source)) {
      copyFileSync(source, join(ROOT, 'shared', wing, 'README.md'));
      readmes.push(`shared/${wing}/README.md`);
    }
  }
  if (existsSync(join(readmeDir, 'shared.md'))) {
    copyFileSync(join(readmeDir, 'shared.md'), join(ROOT, 'shared', 'README.md'));
    readmes.push('shared/README.md');
  }
  if (readmes.length > 0) git('add', '--', ...readmes);
  git('add', '-u', '--', '.');

  const folders = moves.filter((m) => m.kind === 'folder');
  const coreFiles = moves.filter((m) => m.kind === 'file');
  console.log(`moved ${folders.length} folders and ${coreFiles.length} root files of shared/ (${filesMoved} files in all)`);
  for (const m of moves) console.log(`  ${m.from} -> ${m.to}`);
  const skipped = Object.keys(FOLDER_MOVES).filter((f) => !folders.some((m) => m.from === f));
  if (skipped.length > 0) console.log(`skipped (absent or already moved): ${skipped.join(', ')}`);
  console.log(`rewrote ${counts.files} files: ${counts.specifiers} relative specifiers, ${counts.dirnamePaths} __dirname paths, ${counts.pathMentions} repo-relative path mentions`);
  console.log(`wrote ${readmes.join(', ') || 'no README'}`);
  const left = leftovers();
  if (left.length > 0) {
    console.log('mentions of old paths left (handle by hand):');
    for (const line of left) console.log(`  ${line}`);
  }
  console.log('next: npx tsc --noEmit && npx tsc --noEmit -p console, the unit tests, then commit');
}

/** Old-layout mentions still in the text files after the rewrite (patterns the script does not know). */
function leftovers(): string[] {
  const oldNames = [...Object.keys(FOLDER_MOVES).map((f) => f.slice('shared/'.length)), ...CORE_FILES.map((f) => f.replace(/\.ts$/, ''))];
  const stillThere = oldNames.filter((name) => !existsSync(join(ROOT, 'shared', name)) && !existsSync(join(ROOT, 'shared', `${name}.ts`)));
  const re = new RegExp(`(['"\`])shared\\1\\s*,\\s*\\1(${stillThere.join('|')})(\\.ts)?\\1|(?<![\\w.-])(?<![\\w-]/)shared/(${stillThere.join('|')})(?![\\w-])`, 'g');
  const found: string[] = [];
  for (const file of repoFiles()) {
    if (!isText(file)) continue;
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      re.lastIndex = 0;
      if (re.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 140)}`);
    });
  }
  return found;
}

if (require.main === module) main();
