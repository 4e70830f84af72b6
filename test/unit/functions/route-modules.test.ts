import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable } from '../../../functions/route-table';
import { StatusReach, type ModuleRoute } from '../support/status-reach';
import { allAnswers } from '../../../shared/platform/http/answers';
import { endpointGroups } from '../../../shared/platform/core/routes';
import * as z from '../../../shared/platform/core/zod';

const ROOT = join(__dirname, '../../..');
const modular = routeTable;

interface Unreachable {
  readonly route: string;
  readonly status: number;
  /** The function (`file#name`) the status arises through, which rules it out. */
  readonly through: string;
  readonly why: string;
}

/**
 * Statuses the static analysis reaches that a route cannot answer (it over-approximates: an error
 * thrown and caught counts, and so does a branch the data never takes). Each is excused only while
 * it arises through `through` alone; one no longer reached fails the test.
 */
const UNREACHABLE: readonly Unreachable[] = [
  {
    route: 'GET /v1/activity/{id}',
    status: 422,
    through: 'shared/mail-pipeline/batches/batch-activity.ts#queuedBatchMailHtml',
    why: 'It catches the refusals of composing a queued batch mail (an AppError under 500, such as TEMPLATE_EMPTY) and answers no html: the activity is shown without it',
  },
  {
    route: 'POST /v1/segments',
    status: 404,
    through: 'shared/audience/leads/segment-service.ts#moveSegmentCount',
    why: "Its 404 is for a segment found gone when a delete moves the count; a create's write (putNewSegment) never reports `gone`",
  },
];

/** The route modules of a group's folder, by file. */
function moduleFiles(group: string): string[] {
  const dir = join(ROOT, endpointGroups[group as keyof typeof endpointGroups].entry, '..', 'routes');
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts').map((f) => join(dir, f));
  } catch {
    return [];
  }
}

describe('the route table', () => {
  it('lists each route once', () => {
    const keys = routeTable.map((route) => route.key);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('gives every route anyone can call a throttle class, and no keyed route one', () => {
    expect(routeTable.filter((r) => (r.auth === 'public') !== (r.throttle !== undefined)).map((r) => r.key)).toEqual([]);
  });
});

describe('every route module', () => {
  it('serves every endpoint group', () => {
    expect(new Set(modular.map((r) => r.group))).toEqual(new Set(Object.keys(endpointGroups)));
  });

  it.each(modular.map((r) => [r.key, r] as const))('%s: answers a typed success', (_key, route) => {
    const successes = Object.entries(route.answers).filter(([status]) => Number(status) < 400);
    expect(successes.length).toBeGreaterThan(0);
    for (const [, answer] of successes) {
      if (!answer.schema || (answer.contentType ?? 'application/json') !== 'application/json') continue;
      const schema = z.toJSONSchema(answer.schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
      // An object with no properties at all says nothing of what the caller gets.
      expect(JSON.stringify(schema)).not.toMatch(/^\{"\$schema":"[^"]+","type":"object","propertyNames":\{"type":"string"\},"additionalProperties":\{\}\}$/);
      expect(schema.type === 'object' && !schema.properties && !schema.$ref).toBe(false);
    }
  });

  it.each(modular.filter((r) => r.bodyExample !== undefined).map((r) => [r.key, r] as const))('%s: has a body example its schema accepts', (_key, route) => {
    const result = route.body!.safeParse(route.bodyExample);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it.each(modular.map((r) => [r.key, r] as const))('%s: has answer examples their schemas accept', (_key, route) => {
    for (const [status, answer] of Object.entries(allAnswers(route))) {
      if (answer.example === undefined) continue;
      const result = answer.schema!.safeParse(answer.example);
      expect({ status, issues: result.success ? [] : result.error.issues }).toEqual({ status, issues: [] });
    }
  });

  describe('declares every status its handler can answer (test/unit/support/status-reach.ts)', () => {
    // Each module's handle is followed through the calls it makes, into the services, to every
    // `status:` written and every AppError built (the helpers of errors.ts included).
    const reach = new StatusReach(ROOT);
    const modules = [...new Set(modular.map((r) => r.group))].flatMap(moduleFiles).flatMap((file) => reach.moduleRoute(file) ?? []);
    const routesOf = (module: ModuleRoute) => modular.filter((route) => module.key?.test(route.key));

    it('finds the route of every route module, and a module for every route', () => {
      expect(modules.filter((module) => routesOf(module).length === 0).map((module) => `${module.file}: ${module.key ?? 'method or path is not a string'}`)).toEqual([]);
      expect(modular.filter((route) => !modules.some((module) => module.key?.test(route.key))).map((route) => route.key)).toEqual([]);
    });

    it('declares every status its handler, and every service it calls, can answer', () => {
      const undeclared: string[] = [];
      const excused = new Set<Unreachable>();
      for (const module of modules) {
        for (const route of routesOf(module)) {
          const declared = allAnswers(route);
          for (const site of module.statuses) {
            if (declared[site.status]) continue;
            const exception = UNREACHABLE.find((u) => u.route === route.key && u.status === site.status);
            // An exception holds only while the status arises through its function alone.
            if (exception && !reach.moduleRoute(join(ROOT, module.file), { notInto: [exception.through] })!.statuses.some((s) => s.status === site.status)) {
              excused.add(exception);
              continue;
            }
            undeclared.push(`${route.key}: ${site.status} at ${site.at} (${site.via.join(' > ')})`);
          }
        }
      }
      expect([...new Set(undeclared)]).toEqual([]);
      expect(UNREACHABLE.filter((u) => !excused.has(u))).toEqual([]);
    });

    it('reaches no status from the ports\' adapters or the composition root (why calls on `deps.x` are not followed)', () => {
      const adapters = join(ROOT, 'shared/platform/adapters');
      const files = [join(ROOT, 'composition/services.ts'), ...readdirSync(adapters).map((f) => join(adapters, f))];
      expect(files.flatMap((file) => reach.fileStatuses(file)).map((s) => `${s.status} at ${s.at}`)).toEqual([]);
    });
  });
});
