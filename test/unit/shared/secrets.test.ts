import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { services } from '../../../composition/services';
import { tokenSecretOf } from '../../../shared/platform/core/secrets';
import { useServiceEnvironment } from '../support/service-environment';

const secretsManager = mockClient(SecretsManagerClient);
afterEach(() => secretsManager.reset());
afterAll(() => secretsManager.restore());

const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:tokens';
const client = () => new SecretsManagerClient({ region: 'us-east-1' });

describe('the token secret', () => {
  test('TOKEN_SECRET is used as given, without asking Secrets Manager', async () => {
    const secret = tokenSecretOf({ TOKEN_SECRET: 'a-local-secret-0123456789', TOKEN_SECRET_ARN: ARN }, client);
    await expect(secret()).resolves.toBe('a-local-secret-0123456789');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  test('TOKEN_SECRET_ARN is read from Secrets Manager once, on first use, and kept', async () => {
    secretsManager.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'from-secrets-manager-0123' });
    const secret = tokenSecretOf({ TOKEN_SECRET_ARN: ARN }, client);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    expect(await Promise.all([secret(), secret()])).toEqual(['from-secrets-manager-0123', 'from-secrets-manager-0123']);
    await expect(secret()).resolves.toBe('from-secrets-manager-0123');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  test('a failed read is not kept: the next use asks again', async () => {
    secretsManager.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'second-try-secret-0123' });
    const secret = tokenSecretOf({ TOKEN_SECRET_ARN: ARN }, client);
    await expect(secret()).rejects.toThrow('throttled');
    await expect(secret()).resolves.toBe('second-try-secret-0123');
  });

  test('an empty secret is refused', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '' });
    await expect(tokenSecretOf({ TOKEN_SECRET_ARN: ARN }, client)()).rejects.toThrow('Token secret is empty');
  });

  test('neither variable set is named in the error', async () => {
    await expect(tokenSecretOf({}, client)()).rejects.toThrow('Neither TOKEN_SECRET nor TOKEN_SECRET_ARN is set');
  });
});

describe('the token secret as a service of the container', () => {
  useServiceEnvironment({ TOKEN_SECRET: undefined, TOKEN_SECRET_ARN: ARN });

  test('building the services reads nothing; the first use reads the ARN once for every caller', async () => {
    secretsManager.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: 'deployed-secret-0123456' });
    const deps = services();
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(0);
    await expect(deps.tokenSecret()).resolves.toBe('deployed-secret-0123456');
    await expect(services().tokenSecret()).resolves.toBe('deployed-secret-0123456');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });
});
