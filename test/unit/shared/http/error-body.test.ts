import { AppError, badRequest, concurrentChange, conflict, notFound, unauthorized } from '../../../../shared/platform/core/errors';
import { errorResponse } from '../../../../shared/platform/http/error-body';

describe('errorResponse (part 7)', () => {
  describe('project routes', () => {
    test('an AppError becomes {error} with its status', () => {
      expect(errorResponse(badRequest('attachments must be an array'), 'project', 'req-1')).toEqual({
        status: 400,
        body: { error: 'attachments must be an array' },
      });
    });

    test('extra fields are added flat', () => {
      const response = errorResponse(conflict('Project disabled', 'PROJECT_DISABLED', { project_id: 'p-1' }), 'project', 'req-1');
      expect(response).toEqual({ status: 409, body: { error: 'Project disabled', project_id: 'p-1' } });
    });

    test('no code or error_code on project routes', () => {
      const { body } = errorResponse(notFound('Activity not found'), 'project', 'req-1');
      expect(body).not.toHaveProperty('code');
      expect(body).not.toHaveProperty('error_code');
      expect(body).not.toHaveProperty('request_id');
    });

    test('a 401 keeps its message to the letter', () => {
      const response = errorResponse(unauthorized('Invalid API key'), 'project', 'req-1');
      expect(response).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    });
  });

  describe('partner routes', () => {
    test('add code and error_code with the same value', () => {
      const response = errorResponse(badRequest('name is required', 'MISSING_NAME'), 'partner', 'req-1');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'name is required', code: 'MISSING_NAME', error_code: 'MISSING_NAME' });
    });

    test('keep extra fields flat next to the codes', () => {
      const response = errorResponse(conflict('Project is disabled', 'PROJECT_DISABLED', { project_id: 'p-9' }), 'partner', 'r');
      expect(response).toEqual({
        status: 409,
        body: { error: 'Project is disabled', project_id: 'p-9', code: 'PROJECT_DISABLED', error_code: 'PROJECT_DISABLED' },
      });
    });

    test('an AppError without a code still gets code === error_code', () => {
      const { body } = errorResponse(new AppError(422, 'Domain not verified'), 'partner', 'r');
      expect(typeof body.code).toBe('string');
      expect(body.code).toBe(body.error_code);
    });

    test('an unknown error also carries code === error_code', () => {
      const { status, body } = errorResponse(new Error('db exploded'), 'partner', 'r');
      expect(status).toBe(500);
      expect(body.code).toBe(body.error_code);
      expect(JSON.stringify(body)).not.toContain('db exploded');
    });
  });

  describe('lost races', () => {
    test('a conditional write no service answered for is a 409 CONFLICT, not a 500', () => {
      const error = concurrentChange();
      expect(errorResponse(error, 'project', 'r')).toEqual({ status: 409, body: { error: 'The resource was changed by a concurrent request; retry' } });
      expect(errorResponse(error, 'partner', 'r')).toMatchObject({ status: 409, body: { code: 'CONFLICT', error_code: 'CONFLICT' } });
    });
  });

  describe('unknown errors', () => {
    test('become 500 {error: "Internal server error", request_id}', () => {
      expect(errorResponse(new Error('secret table name in message'), 'project', 'req-42')).toEqual({
        status: 500,
        body: { error: 'Internal server error', request_id: 'req-42' },
      });
    });

    test('the body never carries the original message or a stack', () => {
      const error = new TypeError('Cannot read properties of undefined (reading "password")');
      const serialized = JSON.stringify(errorResponse(error, 'project', 'req-7').body);
      expect(serialized).not.toContain('password');
      expect(serialized).not.toContain('TypeError');
      expect(serialized).not.toContain(' at ');
      expect(serialized).not.toContain(String(error.stack).split('\n')[1].trim());
    });

    test.each<[string, unknown]>([
      ['a string', 'boom'],
      ['undefined', undefined],
      ['a plain object', { message: 'leak me' }],
    ])('a thrown %s becomes the generic 500', (_, thrown) => {
      const { status, body } = errorResponse(thrown, 'project', 'req-x');
      expect(status).toBe(500);
      expect(body).toEqual({ error: 'Internal server error', request_id: 'req-x' });
    });

    test('an Error shaped like an AppError but not one is still generic', () => {
      const fake = Object.assign(new Error('private detail'), { status: 400 });
      expect(errorResponse(fake, 'project', 'r').status).toBe(500);
    });
  });
});
