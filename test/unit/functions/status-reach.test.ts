import { StatusReach } from '../support/status-reach';

const ROOT = '/fx';

/** A StatusReach over these files (paths relative to the root), read from memory. */
function reachOver(files: Record<string, string>): StatusReach {
  return new StatusReach(ROOT, (path) => files[path.slice(ROOT.length + 1)]);
}

const ERRORS = `
export class AppError extends Error {
  constructor(readonly status: number, message: string, readonly code?: string) { super(message); }
}
export const badRequest = (message: string) => new AppError(400, message);
export const notFound = (message: string, code = 'NOT_FOUND') => new AppError(404, message, code);
export const conflict = (message: string) => new AppError(409, message);
`;

/** A route module whose handler is `handle`. */
const routeModule = (imports: string, handle: string, route = "method: 'POST', path: '/things'") => `
import { defineRoute } from './route';
${imports}
export const thing = defineRoute({
  ${route},
  answers: { 200: { description: 'never followed', status: 299 } },
  handle: ${handle},
});
`;

const statusesOf = (reach: StatusReach, file = 'module.ts') => reach.moduleRoute(`${ROOT}/${file}`)!.statuses.map((s) => s.status).sort();

describe('the status reach of a route module', () => {
  it('reads every number of a `status:` expression, a conditional one too, but not those of its answers', () => {
    const reach = reachOver({ 'module.ts': routeModule('', 'async (request) => ({ status: request.body.existing ? 200 : 201, body: {} })') });
    expect(statusesOf(reach)).toEqual([200, 201]);
  });

  it("follows the handler into the services it calls and returns, through imports and re-exports", () => {
    const reach = reachOver({
      'module.ts': routeModule("import { register } from './services';", 'async (request) => register(request.body)'),
      'services/index.ts': "export { register } from './register';",
      'services/register.ts': `
        import * as errors from '../errors';
        export async function register(body: { keys?: string[] }) {
          if (!body) throw errors.badRequest('No body');
          return { status: body.keys ? 201 : 200, body: await store(body) };
        }
        const store = async (body: unknown) => { if (!body) throw errors.conflict('Taken'); return body; };
      `,
      'errors.ts': ERRORS,
    });
    expect(statusesOf(reach)).toEqual([200, 201, 400, 409]);
  });

  it('finds the status of every error helper and `new AppError(status)` reached, and names where and how', () => {
    const reach = reachOver({
      'module.ts': routeModule("import { AppError, notFound } from './errors';", `async (request) => {
        if (!request.params.id) throw notFound('No such thing');
        throw new AppError(502, 'Upstream failed');
      }`),
      'errors.ts': ERRORS,
    });
    expect(reach.moduleRoute(`${ROOT}/module.ts`)!.statuses).toEqual([
      { status: 502, at: 'module.ts:9', via: ['handle'] },
      { status: 404, at: 'errors.ts:6', via: ['handle', 'notFound at module.ts:8'] },
    ]);
  });

  it('follows a function passed on rather than called, and the status passed through a parameter', () => {
    const reach = reachOver({
      'module.ts': routeModule("import { invalid, parse, partnerError, page } from './helpers';", `async (request) => {
        parse(request.body, invalid);
        if (request.params.gone) throw partnerError(403, 'QUOTA');
        return page(202);
      }`),
      'helpers.ts': `
        import { AppError } from './errors';
        export const partnerError = (status: number, code: string) => new AppError(status, code, code);
        export const invalid = (message: string) => partnerError(422, message);
        export const refusedAs = (code: string, status = 400) => ({ refusal: { code, status } });
        export const parse = (body: unknown, refuse: (m: string) => Error) => { if (!body) throw refuse('x'); };
        export function page(status: number) { return { status, body: '' }; }
      `,
      'errors.ts': ERRORS,
    });
    expect(statusesOf(reach)).toEqual([202, 403, 422]);
  });

  it("reads a parameter's default status, and the body and query schemas' refusals", () => {
    const reach = reachOver({
      'module.ts': routeModule("import { schema } from './schema';", 'async () => ({ status: 200, body: {} })', "method: 'POST', path: '/things', body: schema"),
      'schema.ts': "export const refusedAs = (code: string, status = 400) => ({ refusal: { code, status } });\nexport const schema = check(refusedAs('MISSING'));\nconst check = (x: unknown) => x;",
    });
    expect(statusesOf(reach)).toEqual([200, 400]);
  });

  it('does not follow methods called on a value (the ports), nor a stop it is told of', () => {
    const reach = reachOver({
      'module.ts': routeModule("import { get } from './get';", 'async (request) => ({ status: 200, body: await request.deps.db.get(await get()) })'),
      'get.ts': "import { notFound } from './errors';\nexport async function get() { return lookup(); }\nasync function lookup() { throw notFound('gone'); }",
      'errors.ts': ERRORS,
    });
    expect(statusesOf(reach)).toEqual([200, 404]);
    expect(reach.moduleRoute(`${ROOT}/module.ts`, { notInto: ['get.ts#lookup'] })!.statuses.map((s) => s.status)).toEqual([200]);
  });

  it('matches a route module by its method and path, a template path as a pattern', () => {
    const key = (route: string) => reachOver({ 'module.ts': routeModule('', 'async () => ({ status: 200 })', route) }).moduleRoute(`${ROOT}/module.ts`)!.key;
    expect(key("method: 'GET', path: '/things/{id}'")!.test('GET /things/{id}')).toBe(true);
    expect(key('method: \'GET\', path: `/assets/${file}`')!.test('GET /assets/app.js')).toBe(true);
    expect(key('method: \'GET\', path: `/assets/${file}`')!.test('GET /assets/a/b.js')).toBe(false);
    expect(key("method: 'GET', path: '/assets/' + file")).toBeUndefined();
    expect(reachOver({ 'access.ts': 'export const access = {};' }).moduleRoute(`${ROOT}/access.ts`)).toBeUndefined();
  });
});
