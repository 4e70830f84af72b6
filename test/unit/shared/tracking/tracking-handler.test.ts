import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { clickToken, openToken } from '../../../../shared/mail-pipeline/tracking/tracking-tokens';
import { TRANSPARENT_GIF } from '../../../../shared/mail-pipeline/tracking/responses';
import { useServiceEnvironment } from '../../support/service-environment';

/**
 * The tracking endpoints through the real middy stack, for the answers that need no table: the
 * pixel is the same GIF whatever the token, a bad click token is a 404 page and never a redirect.
 * The table points at a closed port, so any attempt to record fails (and must not show).
 */
const SECRET = 'unit-tracking-secret-0123456789';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

useServiceEnvironment({
  TOKEN_SECRET: SECRET,
  AWS_ACCESS_KEY_ID: 'x',
  AWS_SECRET_ACCESS_KEY: 'x',
  AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  AWS_MAX_ATTEMPTS: '1',
});

async function call(routeKey: string, token: string): Promise<APIGatewayProxyStructuredResultV2> {
  const { handler } = await import('../../../../functions/tracking/handler');
  const event = {
    version: '2.0',
    routeKey,
    rawPath: '/',
    rawQueryString: '',
    headers: { 'user-agent': 'unit', 'x-forwarded-for': '203.0.113.9, 10.0.0.1' },
    pathParameters: { token },
    requestContext: { requestId: 'r-1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  // The middlewares fill in the rest of the context (its `api` part).
  return handler(event, { awsRequestId: 'r-1' } as Context as Parameters<typeof handler>[1]) as Promise<APIGatewayProxyStructuredResultV2>;
}

const gif = (result: APIGatewayProxyStructuredResultV2) => Buffer.from(result.body ?? '', 'base64');

describe('GET /t/o/{token}: always the pixel', () => {
  test('a garbage token gets the transparent GIF, base64-encoded, not cached', async () => {
    const result = await call('GET /t/o/{token}', 'garbage.gif');
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBe(true);
    expect(result.headers?.['content-type']).toBe('image/gif');
    expect(String(result.headers?.['cache-control'])).toContain('no-store');
    expect(gif(result).equals(TRANSPARENT_GIF)).toBe(true);
    expect(gif(result).subarray(0, 6).toString('latin1')).toBe('GIF89a');
  });

  test('a token signed with another secret gets the same answer', async () => {
    const result = await call('GET /t/o/{token}', `${openToken(ID, 'another-secret')}.gif`);
    expect(result.statusCode).toBe(200);
    expect(gif(result).equals(TRANSPARENT_GIF)).toBe(true);
  });

  test('a valid token whose recording fails (table down) still gets the pixel', async () => {
    const result = await call('GET /t/o/{token}', `${openToken(ID, SECRET)}.gif`);
    expect(result.statusCode).toBe(200);
    expect(gif(result).equals(TRANSPARENT_GIF)).toBe(true);
  });
});

describe('GET /t/c/{token}: never a redirect without a valid token', () => {
  test('a tampered token is a 404 page', async () => {
    const token = clickToken(ID, 0, 'https://example.com/', SECRET);
    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    const result = await call('GET /t/c/{token}', tampered);
    expect(result.statusCode).toBe(404);
    expect(result.headers?.location).toBeUndefined();
    expect(result.headers?.['content-type']).toMatch(/^text\/html/);
    expect(result.body).toContain('This link is not valid');
  });

  test('an open token is not a click token', async () => {
    const result = await call('GET /t/c/{token}', openToken(ID, SECRET));
    expect(result.statusCode).toBe(404);
    expect(result.headers?.location).toBeUndefined();
  });
});
