import { FetchError, type Fetcher } from '../ports';
import { SEND_LIMITS } from './limits';
import type { SendPayload } from './send-job';

/** An attachment that cannot be used: the send fails for good with `attachment_error`. */
export class AttachmentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AttachmentError';
  }
}

/** Decodes or downloads every attachment, enforcing 10 MB each and 10 MB in total (part 8). */
export async function resolveAttachments(
  fetcher: Fetcher,
  attachments: SendPayload['attachments'],
): Promise<{ filename: string; content: Buffer; contentType?: string }[]> {
  const resolved: { filename: string; content: Buffer; contentType?: string }[] = [];
  let total = 0;
  for (const a of attachments) {
    let content: Buffer;
    let contentType = a.contentType;
    if (a.content !== undefined) {
      content = Buffer.from(a.content, 'base64');
    } else {
      try {
        const fetched = await fetcher.fetch(a.url as string, {
          maxBytes: SEND_LIMITS.attachmentBytes,
          timeoutMs: SEND_LIMITS.attachmentFetchTimeoutMs,
        });
        content = fetched.body;
        contentType = contentType ?? fetched.contentType?.split(';')[0];
      } catch (error) {
        const reason = error instanceof FetchError ? error.message : (error as Error).message;
        throw new AttachmentError(`Attachment ${a.filename} could not be fetched: ${reason}`, { cause: error });
      }
    }
    if (content.length > SEND_LIMITS.attachmentBytes) throw new AttachmentError(`Attachment ${a.filename} exceeds 10 MB`);
    total += content.length;
    if (total > SEND_LIMITS.attachmentTotalBytes) throw new AttachmentError('Attachments exceed 10 MB in total');
    resolved.push({ filename: a.filename, content, contentType });
  }
  return resolved;
}
