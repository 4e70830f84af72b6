import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable } from '../../../functions/route-table';
import { allAnswers } from '../../../shared/platform/http/answers';
import { endpointGroups } from '../../../shared/platform/core/routes';
import * as z from '../../../shared/platform/core/zod';

const ROOT = join(__dirname, '../../..');
const modular = routeTable;

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

  it('declares every status its handler writes (`status: 201` in the module is among its answers)', () => {
    const groups = [...new Set(modular.map((r) => r.group))];
    const undeclared: string[] = [];
    for (const file of groups.flatMap(moduleFiles)) {
      const source = readFileSync(file, 'utf8');
      const path = /path: '([^']+)'/.exec(source)?.[1];
      const method = /method: '([A-Z]+)'/.exec(source)?.[1];
      if (!path || !method) continue;
      const route = modular.find((r) => r.key === `${method} ${path}`);
      if (!route) continue;
      for (const [, status] of source.matchAll(/\bstatus: (\d{3})\b/g)) {
        if (!allAnswers(route)[Number(status)]) undeclared.push(`${route.key} ${status}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
