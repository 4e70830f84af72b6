import { htmlToText } from '../../../../shared/platform/mail/html-text';
import { buildMime, type MimeInput } from '../../../../shared/platform/mail/mime';

// mailparser ships no type declarations: type the little we use.
interface ParsedAddress {
  value: { address?: string; name: string }[];
}
interface ParsedMail {
  from?: ParsedAddress;
  to?: ParsedAddress | ParsedAddress[];
  cc?: ParsedAddress | ParsedAddress[];
  replyTo?: ParsedAddress;
  subject?: string;
  html: string | false;
  text?: string;
  headers: Map<string, unknown>;
  attachments: { filename?: string; contentType: string; content: Buffer }[];
}
const { simpleParser } = require('mailparser') as { simpleParser: (source: Buffer) => Promise<ParsedMail> };

const addressesOf = (field: ParsedAddress | ParsedAddress[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((f) => f.value.map((v) => v.address));

const base = (): MimeInput => ({
  from: { address: 'sender@example.com', name: 'Ada Lovelace' },
  to: ['one@example.com', 'two@example.com'],
  cc: ['copy@example.com'],
  replyTo: 'reply+abc@inbound.example.com',
  subject: 'Quarterly report',
  html: '<h1>Hello</h1><p>See the <a href="https://example.com/r">report</a>.</p>',
  attachments: [],
});

async function build(input: MimeInput): Promise<{ raw: string; mail: ParsedMail }> {
  const buffer = await buildMime(input);
  expect(Buffer.isBuffer(buffer)).toBe(true);
  return { raw: buffer.toString('utf8'), mail: await simpleParser(buffer) };
}

describe('buildMime', () => {
  test('From carries the sender name and address', async () => {
    const { mail } = await build(base());
    expect(mail.from?.value).toEqual([{ address: 'sender@example.com', name: 'Ada Lovelace' }]);
  });

  test('From without a name shows only the address', async () => {
    const { mail } = await build({ ...base(), from: { address: 'sender@example.com' } });
    expect(mail.from?.value).toEqual([{ address: 'sender@example.com', name: '' }]);
  });

  test('a non-ASCII sender name survives', async () => {
    const { mail } = await build({ ...base(), from: { address: 'sender@example.com', name: 'Zoë Ümlaut' } });
    expect(mail.from?.value[0].name).toBe('Zoë Ümlaut');
  });

  test('To lists every recipient', async () => {
    const { mail } = await build(base());
    expect(addressesOf(mail.to)).toEqual(['one@example.com', 'two@example.com']);
  });

  test('Cc lists the cc addresses', async () => {
    const { mail } = await build(base());
    expect(addressesOf(mail.cc)).toEqual(['copy@example.com']);
  });

  test('no Cc header when there is no cc', async () => {
    const { raw, mail } = await build({ ...base(), cc: [] });
    expect(mail.cc).toBeUndefined();
    expect(raw).not.toMatch(/^Cc:/im);
  });

  test('Reply-To is set', async () => {
    const { mail } = await build(base());
    expect(addressesOf(mail.replyTo)).toEqual(['reply+abc@inbound.example.com']);
  });

  test('Subject is set', async () => {
    const { mail } = await build(base());
    expect(mail.subject).toBe('Quarterly report');
  });

  test('a non-ASCII subject is encoded and decodes back intact', async () => {
    const subject = 'Grüße aus Köln – 你好 🎉';
    const { raw, mail } = await build({ ...base(), subject });
    expect(mail.subject).toBe(subject);
    // Headers must be 7-bit: the subject travels encoded.
    const headerBlock = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(headerBlock).toMatch(/^[\x00-\x7f]*$/);
  });

  test('the html body is kept', async () => {
    const { mail } = await build(base());
    expect(mail.html).toContain('<h1>Hello</h1>');
    expect(mail.html).toContain('href="https://example.com/r"');
  });

  test('a text alternative is derived from the html when text is absent', async () => {
    const { mail } = await build(base());
    expect(mail.text).toBeDefined();
    expect(mail.text).toMatch(/HELLO|Hello/);
    expect(mail.text).toContain('report');
    expect(mail.text).not.toContain('<h1>');
    expect(mail.text).not.toContain('<p>');
  });

  test('a given text alternative is kept as is', async () => {
    const { mail } = await build({ ...base(), text: 'Plain words only.' });
    expect(mail.text?.trim()).toBe('Plain words only.');
  });

  test('the message is multipart/alternative with text and html parts', async () => {
    const { raw } = await build(base());
    expect(raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
  });

  test('attachments keep filename, content and a given content type', async () => {
    const { mail } = await build({
      ...base(),
      attachments: [
        { filename: 'notes.bin', content: Buffer.from([0, 1, 2, 250, 255]), contentType: 'application/x-custom' },
        { filename: 'hello.txt', content: Buffer.from('hello world'), contentType: 'text/plain' },
      ],
    });
    expect(mail.attachments).toHaveLength(2);
    expect(mail.attachments[0].filename).toBe('notes.bin');
    expect(mail.attachments[0].contentType).toBe('application/x-custom');
    expect(Buffer.compare(mail.attachments[0].content, Buffer.from([0, 1, 2, 250, 255]))).toBe(0);
    expect(mail.attachments[1].filename).toBe('hello.txt');
    expect(mail.attachments[1].content.toString('utf8')).toBe('hello world');
  });

  test.each([
    ['report.pdf', 'application/pdf'],
    ['photo.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['data.csv', 'text/csv'],
  ])('an attachment %s without content type gets %s from its name', async (filename, type) => {
    const { mail } = await build({ ...base(), attachments: [{ filename, content: Buffer.from('x') }] });
    expect(mail.attachments[0].filename).toBe(filename);
    expect(mail.attachments[0].contentType).toBe(type);
  });

  test('a non-ASCII attachment name survives', async () => {
    const { mail } = await build({ ...base(), attachments: [{ filename: 'résumé.pdf', content: Buffer.from('x') }] });
    expect(mail.attachments[0].filename).toBe('résumé.pdf');
  });

  test('extra headers are written', async () => {
    const { mail } = await build({ ...base(), headers: { 'X-Activity-Id': 'act-123' } });
    expect(mail.headers.get('x-activity-id')).toBe('act-123');
  });

  test('bcc addresses never appear anywhere in the raw output', async () => {
    // MimeInput has no bcc field by design; a caller passing one anyway must not leak it.
    const input = { ...base(), bcc: ['secret-bcc@hidden.example.com'] } as MimeInput;
    const { raw, mail } = await build(input);
    expect(raw).not.toMatch(/secret-bcc/i);
    expect(raw).not.toMatch(/hidden\.example\.com/i);
    expect(raw).not.toMatch(/^Bcc:/im);
    expect(mail.headers.has('bcc')).toBe(false);
  });
});

describe('htmlToText', () => {
  test('keeps the words and drops tags and images', () => {
    const text = htmlToText('<p>Hi <b>there</b></p><img src="https://example.com/pixel.gif" alt="tracking pixel">');
    expect(text).toContain('Hi there');
    expect(text).not.toContain('<');
    expect(text).not.toContain('pixel');
  });

  test('wraps long lines at 78 characters', () => {
    const text = htmlToText(`<p>${'word '.repeat(60)}</p>`);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(text.split('\n').length).toBeGreaterThan(1);
  });
});
