// Routes not yet in modules (functions/<group>/routes/); a route module's body is validated by apiHandler.
import { listRouteSchemas, schemasOf } from '../../../../shared/openapi/api-schemas';

describe('routes whose schema is the one source of validation', () => {
  it.each(['POST /v1/send-email', 'POST /v1/send-template-email', 'POST /domains/register', 'POST /send-email', 'POST /v1/send-batch', 'PATCH /v1/send-batch/{batchId}', 'PATCH /v1/scheduled-sends/{id}', 'POST /v1/templates', 'PUT /v1/templates/{id}', 'POST /v1/suppressions', 'POST /v1/suppressions/remove', 'POST /v1/partner/projects', 'PATCH /v1/partner/projects/{projectId}', 'POST /v1/partner/projects/{projectId}/domains', 'POST /v1/partner/projects/{projectId}/senders', 'POST /v1/campaigns', 'POST /domains/reply', 'POST /domains/tracking', 'POST /domains/verify-email'].filter((key) => schemasOf(key)))('%s: is marked as validating', (key) => {
    expect(schemasOf(key)?.validates).toBe(true);
  });
});

describe('every route that takes a body', () => {
  it('validates it through its schema: no body is read by hand', () => {
    const byHand = listRouteSchemas().filter(({ schemas }) => schemas.body && !schemas.validates).map(({ route }) => `${route.method} ${route.path}`);
    expect(byHand).toEqual([]);
  });
});
