import { gunzipSync, gzipSync } from 'node:zlib';

/** What an activity's body item keeps: enough to show the mail and to rebuild it. */
export interface ActivityBody {
  html: string;
  text?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to?: string;
  attachments: { filename: string; content_type?: string; source: 'url' | 'content' }[];
}

/** Gzipped JSON: HTML compresses 4 to 10 times, and every KB saved is a write unit saved. */
export function encodeBody(body: ActivityBody): Uint8Array {
  return gzipSync(Buffer.from(JSON.stringify(body)), { level: 6 });
}

/** Reverses encodeBody. */
export function decodeBody(content: Uint8Array): ActivityBody {
  return JSON.parse(gunzipSync(Buffer.from(content)).toString('utf8')) as ActivityBody;
}
