import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { SesMailer } from '../../../../shared/platform/adapters/ses-mailer';
import { MailerError } from '../../../../shared/platform/core/ports';
import { buildMime } from '../../../../shared/platform/mail/mime';

const ses = mockClient(SESv2Client);
afterEach(() => ses.reset());
afterAll(() => ses.restore());

/** The header block of a raw message, one entry per header line (continuations unfolded). */
function headerNames(raw: Uint8Array): string[] {
  const text = Buffer.from(raw).toString('latin1');
  const block = text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return block.split('\r\n').map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
}

/** What a queued send job could carry: control headers from before they were refused, and hostile text. */
const hostile = {
  from: { address: 'news@example.com', name: 'News\r\nX-SES-CONFIGURATION-SET: none' },
  to: ['reader@example.com'],
  cc: [],
  subject: 'Hi\r\nX-SES-MESSAGE-TAGS: activity_id=other\nBcc: victim@example.com',
  html: '<p>Hi</p>',
  attachments: [{ filename: 'a.txt\r\nX-SES-SOURCE-ARN: arn:aws:ses:x', content: Buffer.from('a') }],
  headers: {
    'X-SES-CONFIGURATION-SET': 'no-events',
    'x-ses-message-tags': 'project_id=someone-else',
    'X-SES-SOURCE-ARN': 'arn:aws:ses:us-east-1:1:identity/other.example',
    Received: 'from forged',
    'Authentication-Results': 'mx.example; dkim=pass',
    'In-Reply-To': '<a@b>\r\nX-SES-X: 1',
    'X-Campaign': 'spring',
  },
};

describe('what reaches SES', () => {
  test('the configuration set and tags are parameters of SendEmail, and no control header reaches the raw MIME', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const raw = await buildMime(hostile);
    await new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'mailroom-events').sendRaw({
      raw,
      from: 'news@example.com',
      recipients: ['reader@example.com'],
      tags: { activity_id: 'act-1', project_id: 'proj-1' },
    });

    const [call] = ses.commandCalls(SendEmailCommand);
    const input = call.args[0].input;
    expect(input.ConfigurationSetName).toBe('mailroom-events');
    expect(input.EmailTags).toEqual([
      { Name: 'activity_id', Value: 'act-1' },
      { Name: 'project_id', Value: 'proj-1' },
    ]);
    expect(input.FromEmailAddress).toBe('news@example.com');
    expect(input.Destination?.ToAddresses).toEqual(['reader@example.com']);
    const names = headerNames(input.Content?.Raw?.Data as Uint8Array);
    expect(names.filter((n) => n.startsWith('x-ses-'))).toEqual([]);
    expect(names).not.toContain('received');
    expect(names).not.toContain('authentication-results');
    expect(names).not.toContain('bcc');
    expect(names).toContain('x-campaign');
  });

  test('a raw message that carries an SES control header is refused before SES is called', async () => {
    const raw = Buffer.from('From: a@example.com\r\nX-SES-CONFIGURATION-SET: other\r\nSubject: hi\r\n\r\nbody with X-SES-FOO: in the text');
    const mailer = new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'mailroom-events');
    const sent = mailer.sendRaw({ raw, from: 'a@example.com', recipients: ['b@example.com'], tags: {} });
    await expect(sent).rejects.toBeInstanceOf(MailerError);
    await expect(sent).rejects.toMatchObject({ kind: 'rejected' });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  test('X-SES text in the body is not a header', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    const raw = Buffer.from('From: a@example.com\r\nSubject: hi\r\n\r\nX-SES-CONFIGURATION-SET: quoted in the body');
    await new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'c').sendRaw({ raw, from: 'a@example.com', recipients: ['b@example.com'], tags: {} });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });
});
