import http from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { PAYLOAD_LIMITS } from '../shared/platform/http/payload-limits';
import { routeTable, type TableRoute } from '../functions/route-table';
import { breachOf, type ContractBreach } from './answer-check';
import type { EndpointGroup } from '../shared/platform/core/routes';
import { lambdaContext } from './lambda-context';
import { closeServer } from './emulators/close-server';
import { runAs } from './iam/enforce';

type ApiLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A route of the local cloud only (see `localRoutes`): the raw request in, a JSON answer out. */
export type LocalRoute = (request: { body: Buffer; headers: Record<string, string>; query: Record<string, string> }) => Promise<{ status: number; body: unknown }>;

interface CompiledRoute {
  readonly key: string;
  readonly method: string;
  readonly group: EndpointGroup;
  readonly route: TableRoute;
  readonly pattern: RegExp;
  readonly names: string[];
}

/** Turns `/v1/activity/{id}` into a matcher that captures `id`. */
function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * API Gateway's choice among routes that match one path: segment by segment, a fixed segment before
 * a `{parameter}` (`/v1/leads/imports` before `/v1/leads/{id}`), whatever order the table lists them in.
 */
function specificity(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const ap = as[i].startsWith('{');
    const bp = bs[i].startsWith('{');
    if (ap !== bp) return ap ? 1 : -1;
  }
  return 0;
}

/** The request target as a URL; undefined when it is not one (`//`, `http://[`...). */
function parseUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/** The route's path parameters, decoded once as API Gateway does; undefined when one does not decode. */
function decodeParams(names: readonly string[], raw: readonly string[]): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(raw[i])]));
  } catch {
    return undefined;
  }
}

/** API Gateway's own answer to a request it cannot route. */
function answerMalformed(res: http.ServerResponse, message: string): void {
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message }));
}

/** HTTP API's largest request payload. */
const MAX_BODY_BYTES = PAYLOAD_LIMITS.apiGatewayBodyBytes;

/** How long an idle kept-alive connection stays open: far above any client's reuse window. */
const KEEP_ALIVE_MS = 65_000;

const TEXT_TYPES = /^(application\/([\w.-]+\+)?json|text\/|application\/x-www-form-urlencoded)/i;

/**
 * The local API Gateway: turns each HTTP request into an HTTP API v2 event for the handler of its
 * route's group (the same handlers Lambda runs), and the handler's result back into a response.
 */
export async function startApiServer(options: {
  port: number;
  handlers: Record<EndpointGroup, ApiLambda>;
  /**
   * Check every answer against its route module (the tests): an answer that breaks it is replaced by
   * a 500 naming the breach, and reported to `onBreach`.
   */
  checkAnswers?: { onBreach(breach: ContractBreach): void };
  /** Local-only routes by route key (`POST /_local/inbound`): never in the route table, so never in AWS. */
  localRoutes?: Record<string, LocalRoute>;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const compiled: CompiledRoute[] = [...routeTable]
    .sort((a, b) => specificity(a.path, b.path))
    .map((r) => ({ key: r.key, method: r.method, group: r.group, route: r, ...compile(r.path) }));

  // Set once listening, before any request can arrive.
  let ownHost = 'localhost';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    // A client that goes away mid-body must not take the process with it.
    req.on('error', () => res.destroy());
    req.on('end', () => {
      // API Gateway's payload limit; the local server would otherwise hold any body in memory.
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        return void res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
      }
      void (async () => {
        const url = parseUrl(req.url);
        if (!url) return answerMalformed(res, 'Malformed request URL');
        const method = (req.method ?? 'GET').toUpperCase();
        let params: Record<string, string> | undefined = {};
        const route = compiled.find((r) => {
          if (r.method !== method) return false;
          const m = r.pattern.exec(url.pathname);
          if (!m) return false;
          params = decodeParams(r.names, m.slice(1));
          return true;
        });
        // API Gateway answers 400 itself when a path parameter does not decode; the function never runs.
        if (!params) return answerMalformed(res, 'Malformed percent-encoding in the request path');
        const local = options.localRoutes?.[`${method} ${url.pathname}`];
        if (local) {
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : (v ?? '')]));
          try {
            const answer = await local({ body: Buffer.concat(chunks), headers, query: Object.fromEntries(url.searchParams.entries()) });
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(answer.body));
          } catch (error) {
            console.error(error);
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ message: 'Internal Server Error' }));
          }
          return;
        }
        if (!route) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'Not Found' }));
          return;
        }
        const raw = Buffer.concat(chunks);
        const contentType = String(req.headers['content-type'] ?? '');
        const isText = raw.length === 0 || contentType === '' || TEXT_TYPES.test(contentType);
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : (v ?? '')]));
        // Payload 2.0: API Gateway moves the Cookie header into `cookies`, one entry per cookie.
        const cookies = headers.cookie ? headers.cookie.split(/;\s*/).filter(Boolean) : undefined;
        delete headers.cookie;
        const query = Object.fromEntries(url.searchParams.entries());
        const context = lambdaContext(`local-${route.group}`);
        const event: APIGatewayProxyEventV2 = {
          version: '2.0',
          routeKey: route.key,
          rawPath: url.pathname,
          rawQueryString: url.search.replace(/^\?/, ''),
          ...(cookies ? { cookies } : {}),
          headers,
          queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
          pathParameters: Object.keys(params).length > 0 ? params : undefined,
          requestContext: {
            accountId: '000000000000',
            apiId: 'local',
            // API Gateway names the domain it serves, whatever Host or X-Forwarded-Host a caller sends.
            domainName: ownHost,
            domainPrefix: 'local',
            http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
            requestId: context.awsRequestId,
            routeKey: route.key,
            stage: '$default',
            time: new Date().toISOString(),
            timeEpoch: Date.now(),
          },
          body: raw.length > 0 ? (isText ? raw.toString('utf8') : raw.toString('base64')) : undefined,
          isBase64Encoded: raw.length > 0 && !isText,
        };
        // Lambda's synchronous invoke takes at most 6 MB of event: a larger request never reaches the
        // function, and API Gateway answers with its own 5xx. Locally as in AWS, so that no test
        // passes with a request AWS could not carry.
        const eventBytes = Buffer.byteLength(JSON.stringify(event));
        if (eventBytes > PAYLOAD_LIMITS.lambdaEventBytes) {
          console.error(`Request event of ${eventBytes} bytes exceeds Lambda's ${PAYLOAD_LIMITS.lambdaEventBytes}-byte invoke payload: API Gateway answers 500`);
          res.writeHead(500, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ message: 'Internal Server Error' }));
        }
        try {
          // The group's function runs as its own role: its AWS calls are authorized as that role's.
          const result = await runAs(route.group, () => options.handlers[route.group](event, context));
          const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : Buffer.from(result.body ?? '', 'utf8');
          const breach = options.checkAnswers && breachOf(route.route, result.statusCode ?? 200, String(result.headers?.['content-type'] ?? ''), body);
          if (breach) {
            options.checkAnswers!.onBreach(breach);
            console.error(`Contract breach: ${breach.route} answered ${breach.status}: ${breach.problem}`);
            res.writeHead(500, { 'content-type': 'application/json' });
            return void res.end(JSON.stringify({ message: 'Answer breaks its contract', breach }));
          }
          // Payload 2.0: the function's `cookies` become Set-Cookie headers, one each.
          res.writeHead(result.statusCode ?? 200, { ...(result.headers as http.OutgoingHttpHeaders), ...(result.cookies?.length ? { 'set-cookie': result.cookies } : {}) });
          res.end(body);
        } catch (error) {
          // API Gateway's own answer when the function itself fails.
          console.error(error);
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'Internal Server Error' }));
        }
      })().catch((error: unknown) => {
        // Whatever escapes the request's own handling ends this request, never the local cloud.
        console.error(error);
        if (res.headersSent) return void res.destroy();
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal Server Error' }));
      });
    });
  });
  // Node closes an idle kept-alive socket after 5 s, while fetch reuses one idle for up to 3 s (the
  // hint less 2 s): a process stalled between fetch writing a request on such a socket and the server
  // reading it (a loaded machine) had the server's timer close it first, and fetch failed with no
  // answer. API Gateway, like AWS's load balancers, keeps idle connections far longer than clients do.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node's advice: above keepAliveTimeout, so a slow request's headers never race the idle close.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // Requests Node cannot parse (oversized headers, broken request lines): a 4xx, then the socket closes.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message: 'Bad Request' })}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  ownHost = `localhost:${port}`;
  return { url: `http://localhost:${port}`, stop: () => closeServer(server) };
}
