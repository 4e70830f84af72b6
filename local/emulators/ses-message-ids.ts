import { randomUUID } from 'node:crypto';

/**
 * A message id shaped like SES's: 16 hex digits (a time), a UUID and `-000000`, 60 characters in
 * all. The emulator's own ids (`ses-` and 9 digits, 13 characters) would make every record that
 * stores one 47 bytes smaller than in AWS, so local size and write-unit measurements would lie.
 */
export function awsShapedMessageId(now = Date.now()): string {
  return `0100${now.toString(16).padStart(12, '0').slice(-12)}-${randomUUID()}-000000`;
}

/**
 * The emulator's ids and the AWS-shaped ids the proxy answers with in their place, both ways, so
 * that `GET /store` and the viewer's `GET /get-emlContent` agree with what the sender was told.
 * Kept for the emulator's life, like the emulator's own store of the mails.
 */
export class MessageIdMap {
  private readonly outward = new Map<string, string>();
  private readonly inward = new Map<string, string>();

  /** A new AWS-shaped id for the emulator's `innerId`. */
  issue(innerId: string): string {
    const id = awsShapedMessageId();
    this.outward.set(innerId, id);
    this.inward.set(id, innerId);
    return id;
  }

  /** The id the sender was told for the emulator's `innerId` (itself when the proxy never saw it). */
  outer(innerId: string): string {
    return this.outward.get(innerId) ?? innerId;
  }

  /** The emulator's id for an id the sender was told (itself when unknown). */
  inner(outerId: string): string {
    return this.inward.get(outerId) ?? outerId;
  }
}
