import { randomUUID } from 'node:crypto';
import { activityFromReplyAddress, replyAddress } from '../../../../shared/mail-pipeline/reply-token';

const SECRET = 'reply-secret-1';
const DOMAIN = 'inbound.example.com';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';

describe('reply tokens (Reply-To carries a unique token, part 6)', () => {
  test('an address round-trips to its activity id', () => {
    const address = replyAddress(ID, DOMAIN, SECRET);
    expect(address.endsWith(`@${DOMAIN}`)).toBe(true);
    expect(activityFromReplyAddress(address, SECRET)).toBe(ID);
  });

  test('round trip holds for many random ids', () => {
    for (let i = 0; i < 100; i++) {
      const id = randomUUID();
      expect(activityFromReplyAddress(replyAddress(id, DOMAIN, SECRET), SECRET)).toBe(id);
    }
  });

  test('an upper-case activity id comes back lowercased', () => {
    expect(activityFromReplyAddress(replyAddress(ID.toUpperCase(), DOMAIN, SECRET), SECRET)).toBe(ID);
  });

  test('different activities get different addresses', () => {
    expect(replyAddress(randomUUID(), DOMAIN, SECRET)).not.toBe(replyAddress(randomUUID(), DOMAIN, SECRET));
  });

  test('the local part is at most 64 characters', () => {
    const local = replyAddress(ID, DOMAIN, SECRET).split('@')[0];
    expect(local.length).toBeLessThanOrEqual(64);
  });

  test('the address is lowercase (survives case-folding servers)', () => {
    const address = replyAddress(ID.toUpperCase(), DOMAIN, SECRET);
    expect(address).toBe(address.toLowerCase());
  });

  test('parsing is case-insensitive', () => {
    const address = replyAddress(ID, DOMAIN, SECRET);
    expect(activityFromReplyAddress(address.toUpperCase(), SECRET)).toBe(ID);
    const [local, domain] = address.split('@');
    const mixed = local.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)) + '@' + domain;
    expect(activityFromReplyAddress(mixed, SECRET)).toBe(ID);
  });

  test('surrounding whitespace is tolerated', () => {
    expect(activityFromReplyAddress(`  ${replyAddress(ID, DOMAIN, SECRET)} `, SECRET)).toBe(ID);
  });

  test('a tampered signature is rejected', () => {
    const address = replyAddress(ID, DOMAIN, SECRET);
    const at = address.indexOf('@');
    const last = address[at - 1];
    const tampered = address.slice(0, at - 1) + (last === '0' ? '1' : '0') + address.slice(at);
    expect(tampered).not.toBe(address);
    expect(activityFromReplyAddress(tampered, SECRET)).toBeUndefined();
  });

  test('a signature moved onto another activity id is rejected', () => {
    const address = replyAddress(ID, DOMAIN, SECRET);
    const otherId = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const forged = address.replace(ID.replace(/-/g, ''), otherId);
    expect(forged).not.toBe(address);
    expect(activityFromReplyAddress(forged, SECRET)).toBeUndefined();
  });

  test('an address signed with another secret is rejected', () => {
    expect(activityFromReplyAddress(replyAddress(ID, DOMAIN, 'other-secret'), SECRET)).toBeUndefined();
  });

  test.each(['someone@example.com', 'reply+abc@inbound.example.com', `reply+${'g'.repeat(48)}@x.com`, ''])(
    '%p is not a reply address',
    (address) => {
      expect(activityFromReplyAddress(address, SECRET)).toBeUndefined();
    },
  );

  test('a truncated signature is rejected', () => {
    const address = replyAddress(ID, DOMAIN, SECRET);
    const at = address.indexOf('@');
    expect(activityFromReplyAddress(address.slice(0, at - 2) + address.slice(at), SECRET)).toBeUndefined();
  });
});
