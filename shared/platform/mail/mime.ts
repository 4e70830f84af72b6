import { isControlHeader } from './header-policy';

export interface MimeInput {
  from: { address: string; name?: string };
  to: string[];
  cc: string[];
  replyTo?: string;
  subject: string;
  html: string;
  /** Plain-text alternative; derived from the HTML when absent. */
  text?: string;
  attachments: { filename: string; content: Buffer; contentType?: string }[];
  headers?: Record<string, string>;
}

/**
 * Builds the raw MIME message. Bcc never appears in headers; it goes in the envelope only. Control
 * and trace headers (`X-SES-*`, `Received`...) never get in, whatever a queued job carries: what SES
 * does with the mail is decided by the parameters of its call alone.
 */
export async function buildMime(input: MimeInput): Promise<Buffer> {
  // Loaded on first use (about 250 KB with html-to-text): the domain functions import this module
  // for the rare sender-confirmation mail and should not load it at every cold start.
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const text = input.text ?? (await import('./html-text')).htmlToText(input.html);
  const composer = new MailComposer({
    from: input.from.name ? { name: input.from.name, address: input.from.address } : input.from.address,
    to: input.to,
    cc: input.cc.length > 0 ? input.cc : undefined,
    replyTo: input.replyTo,
    subject: input.subject,
    html: input.html,
    text,
    // Attachments keep their given type; MailComposer infers one from the file name otherwise.
    attachments: input.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    headers: input.headers ? Object.fromEntries(Object.entries(input.headers).filter(([name]) => !isControlHeader(name))) : undefined,
  });
  return composer.compile().build();
}
