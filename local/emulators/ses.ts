import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sesServer from 'aws-ses-v2-local';
import type { RunningEmulator } from './dynamodb';
import { closeServer } from './close-server';
import { IdentityEmulator } from './ses-identities';
import { MessageIdMap } from './ses-message-ids';
import { TenantEmulator } from './ses-tenants';

/** Where the SES v2 API takes a send. */
const SEND_PATH = '/v2/email/outbound-emails';

/**
 * The local account's send rate (GetAccount's `SendQuota.MaxSendRate`): 50 a second, a small
 * production account's, so the campaign engine paces locally as it would in AWS (docs/campaigns.md).
 */
export const LOCAL_MAX_SEND_RATE = 50;

/** GetAccount's answer: a production account with the local rate (the emulator itself needs a variable for it). */
function accountAnswer(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ProductionAccessEnabled: true, SendingEnabled: true, SendQuota: { MaxSendRate: LOCAL_MAX_SEND_RATE, Max24HourSend: 1_000_000, SentLast24Hours: 0 } }));
}

/**
 * Starts the SES v2 emulator (outbox viewer at `/`, parsed mails at `GET /store`) behind a small
 * proxy that keeps every raw message it passes on whole, as `<outboxDir>/<message id>.eml`: the
 * viewer shows only the parsed parts, and a developer sometimes needs every header. The proxy
 * also answers with AWS-shaped message ids in place of the emulator's (ses-message-ids.ts).
 */
export async function startSes(options: {
  port: number;
  outboxDir: string;
  stateFile: string;
  /** Called for every mail the emulator accepted (the mailbox simulator listens here). */
  onSent?: (request: Record<string, unknown>, messageId: string) => void;
  /** Given the identity emulator, whose tags the local IAM reads for aws:ResourceTag conditions. */
  onIdentities?: (identities: IdentityEmulator) => void;
}): Promise<RunningEmulator> {
  fs.mkdirSync(options.outboxDir, { recursive: true });
  const inner = await sesServer({ port: 0, host: '127.0.0.1' });
  const innerPort = (inner.address() as AddressInfo).port;
  let port = options.port;
  const ids = new MessageIdMap();
  const identities = new IdentityEmulator(options.stateFile, () => `http://localhost:${port}`, (to, link) =>
    sendThroughInner(innerPort, to, link),
  );
  options.onIdentities?.(identities);
  const tenants = new TenantEmulator(path.join(path.dirname(options.stateFile), 'ses-tenants.json'));
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'GET' && req.url?.split('?')[0] === '/v2/email/account') {
        accountAnswer(res);
        return;
      }
      if (tenants.handles(req)) {
        tenants.answer(req, body, res);
        return;
      }
      // A send through a tenant that does not hold its identity or configuration set: refused, as SES does.
      const refused = req.method === 'POST' && req.url?.startsWith(SEND_PATH) ? tenants.refusal(JSON.parse(body.toString('utf8') || '{}') as Record<string, string>) : undefined;
      if (refused) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'BadRequestException' });
        res.end(JSON.stringify({ message: refused }));
        return;
      }
      if (identities.handles(req)) {
        identities.answer(req, body, res).catch((e: Error) => {
          res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalFailure' });
          res.end(JSON.stringify({ message: e.message }));
        });
        return;
      }
      const upstream = http.request(
        { host: '127.0.0.1', port: innerPort, method: req.method, path: innerPath(ids, req.url), headers: { ...req.headers, host: `127.0.0.1:${innerPort}` } },
        (up) => {
          const answer: Buffer[] = [];
          up.on('data', (c: Buffer) => answer.push(c));
          up.on('end', () => {
            let payload: Buffer = Buffer.concat(answer);
            const ok = (up.statusCode ?? 500) < 300;
            if (ok && req.method === 'POST' && req.url?.startsWith(SEND_PATH)) {
              payload = withOuterIds(payload, (sent) => {
                sent.MessageId = ids.issue(String(sent.MessageId));
              });
              const messageId = keepRawMessage(options.outboxDir, body, payload);
              if (messageId && options.onSent) options.onSent(JSON.parse(body.toString('utf8')) as Record<string, unknown>, messageId);
            }
            if (ok && req.method === 'GET' && req.url?.split('?')[0] === '/store') {
              payload = withOuterIds(payload, (store) => {
                for (const mail of (store.emails ?? []) as { messageId?: string }[]) if (mail.messageId) mail.messageId = ids.outer(mail.messageId);
              });
            }
            const headers = { ...up.headers };
            delete headers['content-length'];
            res.writeHead(up.statusCode ?? 502, { ...headers, 'content-length': payload.length });
            res.end(payload);
          });
        },
      );
      upstream.on('error', (e) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`SES emulator unreachable: ${e.message}`);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (proxy.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await closeServer(proxy);
      await closeServer(inner);
    },
  };
}

/** The emulator's path for a request: the viewer's `get-emlContent` names a mail by the id the proxy gave out. */
function innerPath(ids: MessageIdMap, url: string | undefined): string | undefined {
  if (!url?.startsWith('/get-emlContent?')) return url;
  const parsed = new URL(url, 'http://local');
  const outer = parsed.searchParams.get('messageId');
  if (outer) parsed.searchParams.set('messageId', ids.inner(outer));
  return `${parsed.pathname}${parsed.search}`;
}

/** A JSON answer with `edit` applied; an answer that is not JSON passes unchanged. */
function withOuterIds(payload: Buffer, edit: (answer: Record<string, unknown>) => void): Buffer {
  try {
    const answer = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
    edit(answer);
    return Buffer.from(JSON.stringify(answer), 'utf8');
  } catch {
    return payload;
  }
}

/** Writes the raw MIME of a SendEmail request under the message id SES answered with; returns that id. */
function keepRawMessage(outboxDir: string, requestBody: Buffer, responseBody: Buffer): string | undefined {
  try {
    const request = JSON.parse(requestBody.toString('utf8')) as { Content?: { Raw?: { Data?: string } } };
    const response = JSON.parse(responseBody.toString('utf8')) as { MessageId?: string };
    const data = request.Content?.Raw?.Data;
    if (!response.MessageId) return undefined;
    if (data) {
      const safeId = response.MessageId.replace(/[^A-Za-z0-9._-]/g, '_');
      writeOnce(outboxDir, safeId, Buffer.from(data, 'base64'));
    }
    return response.MessageId;
  } catch {
    // A request we cannot read is still passed on; only the copy is skipped.
    return undefined;
  }
}

/**
 * Writes `<id>.eml`, or `<id>-2.eml` and so on when the id was used before: AWS-shaped ids carry a
 * random UUID and should never repeat, but an outbox kept across restarts must not lose a mail if one did.
 */
function writeOnce(outboxDir: string, id: string, raw: Buffer): void {
  for (let n = 1; ; n++) {
    try {
      fs.writeFileSync(path.join(outboxDir, n === 1 ? `${id}.eml` : `${id}-${n}.eml`), raw, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Puts SES's address-verification mail into the outbox, as SES would send it to the owner. */
function sendThroughInner(innerPort: number, to: string, link: string): Promise<void> {
  const body = JSON.stringify({
    FromEmailAddress: 'no-reply-aws@amazon.com',
    Destination: { ToAddresses: [to] },
    Content: {
      Simple: {
        Subject: { Data: 'Amazon Web Services - Email Address Verification Request' },
        Body: {
          Text: { Data: `To verify ${to}, open this link within 24 hours:\n${link}` },
          Html: { Data: `<p>To verify <b>${to}</b>, open this link within 24 hours:</p><p><a href="${link}">${link}</a></p>` },
        },
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: innerPort,
        method: 'POST',
        path: SEND_PATH,
        // The emulator wants some credentials, as SES would; any will do.
        headers: { 'content-type': 'application/json', authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/ses/aws4_request' },
      },
      (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 500) < 300 ? resolve() : reject(new Error(`SES emulator answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
