import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bodySignature, signingKey, standardSignature, webhookHeaders } from '../../../../shared/notifications/webhooks/signing';
import { generateWebhookSecret, isWebhookSecret } from '../../../../shared/notifications/webhooks/webhook-secret';

// A fixed secret: `whsec_` + base64 of the 24 bytes 0x00..0x17.
const KEY = Buffer.from(Array.from({ length: 24 }, (_, i) => i));
const SECRET = `whsec_${KEY.toString('base64')}`;
const BODY = '{"event":"email.delivery","timestamp":"2026-01-02T03:04:05.000Z","project_id":"p","is_test":false,"data":{"activity_id":"a"}}';

describe('webhook secret', () => {
  test('is whsec_ + base64 of 24 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(isWebhookSecret(secret)).toBe(true);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  test('isWebhookSecret refuses other shapes', () => {
    expect(isWebhookSecret('whsec_short')).toBe(false);
    expect(isWebhookSecret(KEY.toString('base64'))).toBe(false);
    expect(isWebhookSecret(undefined)).toBe(false);
  });

  test('the signing key is the decoded bytes after whsec_', () => {
    expect(signingKey(SECRET).equals(KEY)).toBe(true);
  });
});

describe('signatures (known vectors computed independently with node crypto)', () => {
  test('X-Svc-Signature is sha256= + hex HMAC-SHA256 of the raw body', () => {
    const expected = createHmac('sha256', KEY).update(BODY, 'utf8').digest('hex');
    expect(bodySignature(SECRET, BODY)).toBe(`sha256=${expected}`);
    expect(bodySignature(SECRET, BODY)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  test('webhook-signature is v1, + base64 HMAC-SHA256 of id.timestamp.body', () => {
    const expected = createHmac('sha256', KEY).update(`msg_1.1767323045.${BODY}`, 'utf8').digest('base64');
    expect(standardSignature(SECRET, 'msg_1', 1767323045, BODY)).toBe(`v1,${expected}`);
  });

  test('a body with non-ASCII characters is signed over its UTF-8 bytes', () => {
    const body = '{"subject":"Grüße ✉"}';
    expect(bodySignature(SECRET, body)).toBe(`sha256=${createHmac('sha256', KEY).update(Buffer.from(body, 'utf8')).digest('hex')}`);
  });

  test('the headers carry both signatures, the slot, the id, the timestamp of the attempt and the fixed ones', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const headers = webhookHeaders({ secret: SECRET, deliveryId: 'msg_abc', attemptAt: at, body: BODY, slot: 'dev' });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Mailroom-Webhooks/1',
      'x-svc-signature': bodySignature(SECRET, BODY),
      'x-svc-environment': 'dev',
      'webhook-id': 'msg_abc',
      'webhook-timestamp': '1767323045',
      'webhook-signature': standardSignature(SECRET, 'msg_abc', 1767323045, BODY),
    });
  });

  test('the standardwebhooks library verifies the headers, and refuses a changed body', () => {
    const headers = webhookHeaders({ secret: SECRET, deliveryId: 'msg_abc', attemptAt: new Date(), body: BODY, slot: 'live' });
    const wh = new Webhook(SECRET);
    expect(wh.verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => wh.verify(BODY.replace('"a"', '"b"'), headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, headers)).toThrow();
  });
});
