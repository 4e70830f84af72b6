/**
 * The bytes of fetched attachments one worker process holds at a time. A send worker runs up to ten
 * mails at once in 256 MB, and a mail's 10 MB of attachments becomes about three times that on its
 * way to SES (the buffers, their base64 in the MIME, the raw message): ten such mails together
 * would not fit. Each mail takes bytes from this budget as they arrive and gives them back once it
 * is sent; a mail that finds the budget spent stops and comes back later, while a smaller one that
 * fits goes on.
 */
export class AttachmentMemory {
  private used = 0;

  constructor(readonly capacityBytes: number) {}

  /** A mail's share: `take` counts bytes in (throwing AttachmentMemoryFull past the capacity), `release` gives them all back. */
  lease(): { take(bytes: number): void; release(): void } {
    let held = 0;
    return {
      take: (bytes: number) => {
        if (this.used + bytes > this.capacityBytes) throw new AttachmentMemoryFull(this.capacityBytes);
        this.used += bytes;
        held += bytes;
      },
      release: () => {
        this.used -= held;
        held = 0;
      },
    };
  }

  /** Bytes held by every mail of the process right now. */
  get usedBytes(): number {
    return this.used;
  }
}

/** The process holds as many attachment bytes as it may: the mail is retried later, not failed. */
export class AttachmentMemoryFull extends Error {
  constructor(capacityBytes: number) {
    super(`This worker already holds ${Math.round(capacityBytes / 1024 / 1024)} MB of attachments; the mail is retried later`);
    this.name = 'AttachmentMemoryFull';
  }
}
