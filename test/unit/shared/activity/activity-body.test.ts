import { decodeBody, encodeBody, type ActivityBody } from '../../../../shared/mail-pipeline/activity/activity-body';

const body = (): ActivityBody => ({
  html: '<p>Grüße, Zoë 🎉</p>',
  text: 'Grüße, Zoë',
  to: ['a@example.com', 'b@example.com'],
  cc: ['c@example.com'],
  bcc: ['d@example.com'],
  reply_to: 'reply+x@inbound.example.com',
  attachments: [
    { filename: 'a.pdf', content_type: 'application/pdf', source: 'url' },
    { filename: 'b.txt', source: 'content' },
  ],
});

describe('encodeBody / decodeBody', () => {
  test('round trip returns the same body', () => {
    expect(decodeBody(encodeBody(body()))).toEqual(body());
  });

  test('round trip of a body without optional fields', () => {
    const minimal: ActivityBody = { html: '<p>x</p>', to: ['a@example.com'], cc: [], bcc: [], attachments: [] };
    expect(decodeBody(encodeBody(minimal))).toEqual(minimal);
  });

  test('the encoded form is binary (gzip), not the JSON text', () => {
    const encoded = encodeBody(body());
    expect(encoded).toBeInstanceOf(Uint8Array);
    expect(encoded[0]).toBe(0x1f);
    expect(encoded[1]).toBe(0x8b);
    expect(Buffer.from(encoded).toString('utf8')).not.toContain('example.com');
  });

  test('a 20 KB repetitive HTML body encodes to under 2 KB', () => {
    const row = '<tr><td class="cell">Item</td><td class="cell">Qty 1</td><td class="price">$10.00</td></tr>\n';
    let html = '<html><body><table>';
    while (html.length < 20 * 1024) html += row;
    html += '</table></body></html>';
    expect(html.length).toBeGreaterThanOrEqual(20 * 1024);
    const encoded = encodeBody({ html, to: ['a@example.com'], cc: [], bcc: [], attachments: [] });
    expect(encoded.byteLength).toBeLessThan(2 * 1024);
    expect(decodeBody(encoded).html).toBe(html);
  });

  test('decoding data that is not gzip throws', () => {
    expect(() => decodeBody(Buffer.from('{"html":"x"}'))).toThrow();
  });
});
