import { GetAccountCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { SendingAccount } from '../core/ports';

/** How long a warm instance trusts the rate it read: SES raises it rarely, and a step runs every few seconds. */
const KEEP_MS = 5 * 60_000;

/** The account's SES send rate (GetAccount), read once per warm instance and kept a few minutes. */
export class SesAccount implements SendingAccount {
  private kept: { rate: number; until: number } | undefined;

  constructor(
    private readonly client: SESv2Client,
    private readonly now: () => number = Date.now,
  ) {}

  async maxSendRate(): Promise<number> {
    if (this.kept && this.kept.until > this.now()) return this.kept.rate;
    const out = await this.client.send(new GetAccountCommand({}));
    const rate = Number(out.SendQuota?.MaxSendRate ?? 0);
    // A sandbox account answers 1 a second; nothing answers 0 unless sending is off.
    this.kept = { rate: rate > 0 ? rate : 1, until: this.now() + KEEP_MS };
    return this.kept.rate;
  }
}
