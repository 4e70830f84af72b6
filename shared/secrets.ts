import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from './config';

let pending: Promise<string> | undefined;

/** The token-signing secret: from the environment locally, from Secrets Manager once per cold start in AWS. */
export function tokenSecret(): Promise<string> {
  if (!pending) {
    const { TOKEN_SECRET, TOKEN_SECRET_ARN } = config();
    if (!TOKEN_SECRET && !TOKEN_SECRET_ARN) throw new Error('Invalid or missing environment variables: TOKEN_SECRET');
    pending = TOKEN_SECRET
      ? Promise.resolve(TOKEN_SECRET)
      : new SecretsManagerClient({})
          .send(new GetSecretValueCommand({ SecretId: TOKEN_SECRET_ARN }))
          .then((out) => {
            if (!out.SecretString) throw new Error('Token secret is empty');
            return out.SecretString;
          });
    pending.catch(() => (pending = undefined));
  }
  return pending;
}
