import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { useServiceEnvironment } from '../../support/service-environment';

/**
 * GET /openapi.json through the real middy stack: its `servers` names the domain API Gateway
 * served the request on (requestContext.domainName), never a host a caller's headers chose, so a
 * shared cache can never hand one caller's forged server URL to everyone else.
 */
useServiceEnvironment({ AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x', AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9', AWS_MAX_ATTEMPTS: '1' });

async function getDocument(headers: Record<string, string>, domainName = 'api.mail.example.com') {
  const { handler } = await import('../../../../functions/docs/handler');
  const event = {
    version: '2.0',
    routeKey: 'GET /openapi.json',
    rawPath: '/openapi.json',
    rawQueryString: '',
    headers,
    requestContext: { requestId: 'r-1', domainName },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const result = (await handler(event, { awsRequestId: 'r-1' } as Context as Parameters<typeof handler>[1])) as APIGatewayProxyStructuredResultV2;
  return { result, document: JSON.parse(result.body ?? '{}') as { servers?: { url: string }[] } };
}

describe('GET /openapi.json: servers', () => {
  test('is the HTTPS URL of the domain the request reached', async () => {
    const { result, document } = await getDocument({ host: 'api.mail.example.com' });
    expect(result.statusCode).toBe(200);
    expect(document.servers).toEqual([{ url: 'https://api.mail.example.com' }]);
  });

  test('ignores X-Forwarded-Host, X-Forwarded-Proto and Host', async () => {
    const { document, result } = await getDocument({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' });
    expect(document.servers).toEqual([{ url: 'https://api.mail.example.com' }]);
    expect(JSON.stringify(document)).not.toContain('evil.example');
    // What may be cached publicly depends on the deployment alone.
    expect(String(result.headers?.['cache-control'])).toContain('public');
  });

  test('is plain HTTP for the local cloud on loopback', async () => {
    const { document } = await getDocument({ 'x-forwarded-host': 'evil.example' }, 'localhost:3000');
    expect(document.servers).toEqual([{ url: 'http://localhost:3000' }]);
  });
});
