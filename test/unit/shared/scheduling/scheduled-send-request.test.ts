import { AppError } from '../../../../shared/platform/core/errors';
import { parseRescheduleRequest, RESCHEDULE_MESSAGES, timezoneAfterMove } from '../../../../shared/mail-pipeline/scheduling/scheduled-send-request';

const NOW = new Date('2030-01-01T09:00:00.000Z');

function refusal(body: unknown): AppError {
  try {
    parseRescheduleRequest(body, NOW);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('PATCH /v1/scheduled-sends/:id: the scheduled_at rule', () => {
  test.each<[string, string, string]>([
    ['2030-01-01T10:00:00Z', '2030-01-01T10:00:00.000Z', 'UTC'],
    ['2030-01-01T19:00:00+09:00', '2030-01-01T10:00:00.000Z', 'UTC+9'],
    ['2030-01-01T04:30:00-05:30', '2030-01-01T10:00:00.000Z', 'UTC-5:30'],
    ['2030-01-01T10:00:00', '2030-01-01T10:00:00.000Z', 'UTC'],
    ['2030-01-02', '2030-01-02T00:00:00.000Z', 'UTC'],
  ])('%s is %s, labelled %s (zone-less means UTC)', (text, instant, label) => {
    const request = parseRescheduleRequest({ scheduled_at: text }, NOW);
    expect(request.instant.toISOString()).toBe(instant);
    expect(request.offsetLabel).toBe(label);
  });

  test.each([[{}], [undefined], [null], [{ scheduled_at: '' }], [{ scheduled_at: null }], [[]]])('a missing scheduled_at (%j) is 400 INVALID_INPUT', (body) => {
    const error = refusal(body);
    expect([error.status, error.message, error.extra.message]).toEqual([400, 'INVALID_INPUT', RESCHEDULE_MESSAGES.required]);
  });

  test('a scheduled_at that is not a string is 400 INVALID_INPUT', () => {
    expect(refusal({ scheduled_at: 1893488400000 }).extra.message).toBe(RESCHEDULE_MESSAGES.notString);
  });

  test.each(['tomorrow at 3pm', 'garbage', '2030-13-01T00:00:00Z', '2030-02-30T10:00:00Z', '2030', '2030-W01-1'])('%s is not ISO 8601: 400 INVALID_INPUT', (text) => {
    const error = refusal({ scheduled_at: text });
    expect([error.status, error.message, error.extra.message]).toEqual([400, 'INVALID_INPUT', RESCHEDULE_MESSAGES.notIso]);
  });

  test.each(['2030-01-01T09:00:00Z', '2030-01-01T08:59:59Z', '2020-01-01T00:00:00Z'])('%s is not in the future: 400 INVALID_INPUT', (text) => {
    const error = refusal({ scheduled_at: text });
    expect([error.status, error.message, error.extra.message]).toEqual([400, 'INVALID_INPUT', 'scheduled_at must be in the future']);
  });

  test('one millisecond after now is in the future', () => {
    expect(parseRescheduleRequest({ scheduled_at: '2030-01-01T09:00:00.001Z' }, NOW).instant.getTime()).toBe(NOW.getTime() + 1);
  });
});

describe('the timezone label after a move', () => {
  const request = (text: string) => parseRescheduleRequest({ scheduled_at: text }, NOW);

  test('a regional IANA zone stays, whatever offset the new time was written with', () => {
    expect(timezoneAfterMove('Europe/Paris', request('2030-02-01T10:00:00+09:00'))).toBe('Europe/Paris');
    expect(timezoneAfterMove('America/New_York', request('2030-02-01T10:00:00Z'))).toBe('America/New_York');
  });

  test('an offset label takes the new time\'s offset', () => {
    expect(timezoneAfterMove('UTC+9', request('2030-02-01T10:00:00-03:00'))).toBe('UTC-3');
    expect(timezoneAfterMove('UTC', request('2030-02-01T10:00:00+05:30'))).toBe('UTC+5:30');
    expect(timezoneAfterMove('UTC-3', request('2030-02-01T10:00:00'))).toBe('UTC');
  });
});
