import MailComposer from 'nodemailer/lib/mail-composer';
import {
  MAX_INBOUND_BYTES,
  headerBlock,
  isAutomatic,
  matchReplyToken,
  parseHeaders,
  parseMail,
  readReply,
  recipientAddresses,
  replyCandidates,
  sesVerdict,
} from '../../../../shared/mail-pipeline/inbound/inbound-mail';
import { replyAddress } from '../../../../shared/mail-pipeline/reply-token';

const SECRET = 'inbound-secret-123';
const ID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const REPLY = replyAddress(ID, 'reply.example.com', SECRET);

function mime(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  return new MailComposer({ from: 'Reader <reader@example.net>', subject: 'Re: Hello', text: 'Thanks!', ...options }).compile().build();
}

describe('the size limit (part 8: 150 KB per reply, base64 attachments included)', () => {
  test('is 150 KiB of raw message', () => {
    expect(MAX_INBOUND_BYTES).toBe(153_600);
  });

  test('an attachment counts by its encoded size: 120 KB of content is over 150 KB once base64', async () => {
    const raw = await mime({ to: REPLY, attachments: [{ filename: 'a.bin', content: Buffer.alloc(120 * 1024, 7) }] });
    expect(raw.length).toBeGreaterThan(MAX_INBOUND_BYTES);
  });
});

describe('finding the reply token among the recipients', () => {
  test('in To, with a display name', async () => {
    const mail = await parseMail(await mime({ to: `Mailroom <${REPLY}>` }));
    expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)).toEqual({ address: REPLY, activityId: ID });
  });

  test('in Cc, beside other recipients', async () => {
    const mail = await parseMail(await mime({ to: 'someone@example.org', cc: ['x@example.org', REPLY] }));
    expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)?.activityId).toBe(ID);
  });

  test('in Delivered-To or X-Original-To (a forwarding mailbox rewrote To)', async () => {
    for (const header of ['Delivered-To', 'X-Original-To']) {
      const mail = await parseMail(await mime({ to: 'support@example.org', headers: { [header]: REPLY } }));
      expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)?.activityId).toBe(ID);
    }
  });

  test('on a branded reply domain: any domain, as long as the local part carries a valid token', async () => {
    const branded = REPLY.replace('@reply.example.com', '@reply.customer.example');
    const mail = await parseMail(await mime({ to: branded }));
    expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)?.activityId).toBe(ID);
  });

  test('a tampered token is a candidate but does not match', async () => {
    const tampered = REPLY.replace(/[0-9a-f](?=@)/, (c) => (c === '0' ? '1' : '0'));
    const mail = await parseMail(await mime({ to: tampered }));
    const recipients = recipientAddresses(mail.headerLines);
    expect(replyCandidates(recipients)).toEqual([tampered]);
    expect(matchReplyToken(recipients, SECRET)).toBeUndefined();
    expect(matchReplyToken(recipientAddresses((await parseMail(await mime({ to: REPLY }))).headerLines), 'another-secret-xyz')).toBeUndefined();
  });

  test('no reply address at all', async () => {
    const mail = await parseMail(await mime({ to: 'reply@reply.example.com' }));
    expect(replyCandidates(recipientAddresses(mail.headerLines))).toEqual([]);
  });

  test('From and Reply-To are not recipients', async () => {
    const mail = await parseMail(await mime({ from: REPLY, replyTo: REPLY, to: 'x@example.org' }));
    expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)).toBeUndefined();
  });
});

describe('reading a reply', () => {
  test('sender, recipients, subject, threading, text, html and attachments', async () => {
    const raw = await mime({
      from: 'Rea Der <reader@example.net>',
      to: REPLY,
      subject: 'Re: Hello ✓',
      messageId: '<reply-1@example.net>',
      inReplyTo: '<original@email.amazonses.com>',
      references: '<original@email.amazonses.com>',
      text: 'Thanks!\n\n> Hello there',
      html: '<p>Thanks!</p>',
      attachments: [{ filename: 'notes.txt', content: 'some notes', contentType: 'text/plain' }],
    });
    const reply = readReply(await parseMail(raw));
    expect(reply).toMatchObject({
      messageId: '<reply-1@example.net>',
      inReplyTo: '<original@email.amazonses.com>',
      from: { address: 'reader@example.net', name: 'Rea Der' },
      to: [{ address: REPLY, name: null }],
      subject: 'Re: Hello ✓',
      text: 'Thanks!\n\n> Hello there',
      html: '<p>Thanks!</p>',
    });
    expect(reply.attachments).toEqual([{ filename: 'notes.txt', content_type: 'text/plain', size: 10, content: Buffer.from('some notes').toString('base64') }]);
  });

  test('a text-only reply has html null and no attachments', async () => {
    const reply = readReply(await parseMail(await mime({ to: REPLY })));
    expect(reply.html).toBeNull();
    expect(reply.text?.trim()).toBe('Thanks!');
    expect(reply.attachments).toEqual([]);
    expect(reply.inReplyTo).toBeNull();
  });

  test('the headers alone are enough for the token, the sender and the subject of a large mail', async () => {
    const raw = await mime({ to: REPLY, subject: 'Big one', attachments: [{ filename: 'big.bin', content: Buffer.alloc(300 * 1024, 1) }] });
    expect(headerBlock(raw).length).toBeLessThan(2048);
    const mail = await parseHeaders(raw);
    expect(mail.subject).toBe('Big one');
    expect(readReply(mail).from?.address).toBe('reader@example.net');
    expect(mail.attachments).toEqual([]);
    expect(matchReplyToken(recipientAddresses(mail.headerLines), SECRET)?.activityId).toBe(ID);
  });
});

describe('automatic mail and SES verdicts', () => {
  test('Auto-Submitted, bulk precedence, a null Return-Path or a daemon sender count as automatic', async () => {
    expect(isAutomatic(await parseMail(await mime({ to: REPLY })))).toBe(false);
    expect(isAutomatic(await parseMail(await mime({ to: REPLY, headers: { 'Auto-Submitted': 'no' } })))).toBe(false);
    expect(isAutomatic(await parseMail(await mime({ to: REPLY, headers: { 'Auto-Submitted': 'auto-replied' } })))).toBe(true);
    expect(isAutomatic(await parseMail(await mime({ to: REPLY, headers: { Precedence: 'bulk' } })))).toBe(true);
    expect(isAutomatic(await parseMail(Buffer.concat([Buffer.from('Return-Path: <>\r\n'), await mime({ to: REPLY })])))).toBe(true);
    expect(isAutomatic(await parseMail(await mime({ to: REPLY, from: 'MAILER-DAEMON@example.net' })))).toBe(true);
  });

  test('the spam and virus verdicts SES adds when the rule scans', async () => {
    const mail = await parseMail(await mime({ to: REPLY, headers: { 'X-SES-Spam-Verdict': 'PASS', 'X-SES-Virus-Verdict': 'FAIL' } }));
    expect(sesVerdict(mail, 'spam')).toBe('PASS');
    expect(sesVerdict(mail, 'virus')).toBe('FAIL');
    expect(sesVerdict(await parseMail(await mime({ to: REPLY })), 'virus')).toBeUndefined();
  });
});
