import { MessageIdMap, awsShapedMessageId } from '../../../local/emulators/ses-message-ids';

describe('local SES message ids', () => {
  test('are shaped like the ids SES gives in AWS: 60 characters, a time, a UUID and -000000', () => {
    const id = awsShapedMessageId(Date.parse('2026-11-24T10:00:00Z'));
    expect(id).toHaveLength(60);
    expect(id).toMatch(/^0100[0-9a-f]{12}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-000000$/);
  });

  test('never repeat, so outbox files named after them stay apart', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => awsShapedMessageId(0)));
    expect(ids.size).toBe(10_000);
  });

  test('map both ways between the emulator id and the one the sender was told', () => {
    const map = new MessageIdMap();
    const outer = map.issue('ses-123456789');
    expect(map.outer('ses-123456789')).toBe(outer);
    expect(map.inner(outer)).toBe('ses-123456789');
    expect(map.outer('ses-999999999')).toBe('ses-999999999');
  });
});
