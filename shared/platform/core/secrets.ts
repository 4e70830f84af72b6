import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from './config';

/** The token-signing secret, resolved on first use and then kept: call it wherever a token is signed or checked. */
export type TokenSecret = () => Promise<string>;

/**
 * The token-signing secret of a configuration: TOKEN_SECRET as given (local mode, tests), else the
 * Secrets Manager secret TOKEN_SECRET_ARN, read once per process (the CDK stack sets the ARN). A
 * failed read is not kept, so the next call tries again.
 */
export function tokenSecretOf(
  cfg: Pick<Config, 'TOKEN_SECRET' | 'TOKEN_SECRET_ARN'>,
  // Loaded on first use: only functions deployed with TOKEN_SECRET_ARN read it, once per process.
  secretsManager: () => SecretsManagerClient | Promise<SecretsManagerClient> = async () => new (await import('@aws-sdk/client-secrets-manager')).SecretsManagerClient({}),
): TokenSecret {
  let pending: Promise<string> | undefined;
  const resolve = async (): Promise<string> => {
    if (cfg.TOKEN_SECRET) return cfg.TOKEN_SECRET;
    if (!cfg.TOKEN_SECRET_ARN) throw new Error('Neither TOKEN_SECRET nor TOKEN_SECRET_ARN is set');
    const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const out = await (await secretsManager()).send(new GetSecretValueCommand({ SecretId: cfg.TOKEN_SECRET_ARN }));
    if (!out.SecretString) throw new Error('Token secret is empty');
    return out.SecretString;
  };
  return () => {
    if (!pending) {
      pending = resolve();
      pending.catch(() => (pending = undefined));
    }
    return pending;
  };
}
