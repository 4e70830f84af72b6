import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import { error, json } from './ses-answers';

/**
 * Emulated SES v2 identities, answering the same REST calls SES does (CreateEmailIdentity with its
 * tags, GetEmailIdentity, DeleteEmailIdentity, PutEmailIdentityMailFromAttributes), so the product's own
 * SES adapter runs unchanged in the local cloud. Domains get Easy DKIM tokens and verify as soon as
 * they are asked about (a real domain needs its DNS records; locally there are none to publish),
 * except names starting with `fail.`, which fail, so both paths can be tried by hand. An address
 * identity gets a verification mail in the outbox; its link confirms it (`fail.` addresses fail).
 */
interface StoredIdentity {
  type: 'DOMAIN' | 'EMAIL_ADDRESS';
  dkimTokens: string[];
  mailFrom?: string;
  confirmed: boolean;
  confirmToken?: string;
  /** The tags given at creation (CreateEmailIdentity `Tags`), returned by GetEmailIdentity as SES does. */
  tags?: { Key: string; Value: string }[];
}

const IDENTITIES = /^\/v2\/email\/identities(?:\/([^/]+))?(\/mail-from)?\/?$/;

export class IdentityEmulator {
  private identities: Record<string, StoredIdentity>;

  constructor(
    private readonly stateFile: string,
    private readonly publicUrl: () => string,
    private readonly sendVerificationMail: (to: string, link: string) => Promise<void>,
  ) {
    this.identities = fs.existsSync(stateFile) ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, StoredIdentity>) : {};
  }

  /** The tags of an identity (as SES keeps them), or undefined when there is no such identity. */
  tagsOf(identity: string): Record<string, string> | undefined {
    const stored = this.identities[identity.toLowerCase()];
    return stored && Object.fromEntries((stored.tags ?? []).map((t) => [t.Key, t.Value]));
  }

  /** Handles the request if it is an identity call; false to let it through to the SES emulator. */
  handles(req: http.IncomingMessage): boolean {
    const url = new URL(req.url ?? '/', 'http://local');
    return IDENTITIES.test(url.pathname) || url.pathname === '/confirm-identity';
  }

  /** Answers an identity call. */
  async answer(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname === '/confirm-identity') return this.confirm(url.searchParams.get('token') ?? '', res);
    const [, rawId, mailFrom] = IDENTITIES.exec(url.pathname) ?? [];
    const id = rawId ? decodeURIComponent(rawId).toLowerCase() : undefined;
    const input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    const method = req.method ?? 'GET';

    if (method === 'POST' && !id) {
      const identity = String(input.EmailIdentity ?? '').toLowerCase();
      if (this.identities[identity]) return error(res, 400, 'AlreadyExistsException', `Email identity ${identity} already exist.`);
      const type = identity.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN';
      const tags = Array.isArray(input.Tags) ? (input.Tags as { Key: string; Value: string }[]) : [];
      const stored: StoredIdentity = { type, dkimTokens: type === 'DOMAIN' ? dkimTokens() : [], confirmed: false, tags };
      if (type === 'EMAIL_ADDRESS') stored.confirmToken = randomBytes(16).toString('hex');
      this.identities[identity] = stored;
      this.save();
      if (type === 'EMAIL_ADDRESS') await this.sendVerificationMail(identity, `${this.publicUrl()}/confirm-identity?token=${stored.confirmToken}`);
      return json(res, 200, {
        IdentityType: type,
        VerifiedForSendingStatus: false,
        DkimAttributes: type === 'DOMAIN' ? dkim(stored, 'PENDING') : undefined,
      });
    }
    if (!id) return error(res, 404, 'NotFoundException', 'Not found');
    const stored = this.identities[id];
    if (!stored) return error(res, 404, 'NotFoundException', `Email identity ${id} does not exist.`);

    if (method === 'PUT' && mailFrom) {
      stored.mailFrom = String(input.MailFromDomain ?? '');
      this.save();
      return json(res, 200, {});
    }
    if (method === 'DELETE') {
      delete this.identities[id];
      this.save();
      return json(res, 200, {});
    }
    if (method === 'GET') return json(res, 200, this.describe(id, stored));
    return error(res, 400, 'BadRequestException', `Unsupported ${method} ${url.pathname}`);
  }

  private describe(id: string, stored: StoredIdentity) {
    const local = stored.type === 'DOMAIN' ? id : id.split('@')[0];
    const fails = local.startsWith('fail.');
    const status = fails ? 'FAILED' : stored.type === 'DOMAIN' || stored.confirmed ? 'SUCCESS' : 'PENDING';
    return {
      IdentityType: stored.type,
      FeedbackForwardingStatus: true,
      VerifiedForSendingStatus: status === 'SUCCESS',
      VerificationStatus: status,
      DkimAttributes: stored.type === 'DOMAIN' ? dkim(stored, status) : { SigningEnabled: false, Status: 'NOT_STARTED', Tokens: [] },
      MailFromAttributes: stored.mailFrom
        ? { MailFromDomain: stored.mailFrom, MailFromDomainStatus: status, BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' }
        : undefined,
      Tags: stored.tags ?? [],
    };
  }

  private confirm(token: string, res: http.ServerResponse): void {
    const entry = Object.entries(this.identities).find(([, s]) => s.confirmToken && s.confirmToken === token);
    if (!entry) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<h1>This verification link is not valid</h1>');
      return;
    }
    entry[1].confirmed = true;
    this.save();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<h1>Congratulations!</h1><p>You have successfully verified ${entry[0]}. You can now send email from this address.</p>`);
  }

  private save(): void {
    fs.writeFileSync(this.stateFile, JSON.stringify(this.identities, null, 2));
  }
}

function dkimTokens(): string[] {
  return [0, 1, 2].map(() => createHash('sha256').update(randomBytes(16)).digest('hex').slice(0, 32));
}

function dkim(stored: StoredIdentity, status: string) {
  return { SigningEnabled: true, Status: status, Tokens: stored.dkimTokens, SigningAttributesOrigin: 'AWS_SES', CurrentSigningKeyLength: 'RSA_2048_BIT' };
}
