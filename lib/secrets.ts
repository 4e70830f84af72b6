import { RemovalPolicy } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** Length of the generated token-signing key. */
export const TOKEN_SECRET_LENGTH = 48;

export interface TokenSecretProps {
  /**
   * What happens to the secret when the stack deletes it.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** The key that signs tokens (Reply-To addresses, later tracking and unsubscribe links). */
export class TokenSecret extends Construct {
  /** The secret; functions get its ARN as TOKEN_SECRET_ARN and read it once at cold start. */
  public readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: TokenSecretProps = {}) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Signing key for the tokens the service puts in addresses and links',
      generateSecretString: {
        passwordLength: TOKEN_SECRET_LENGTH,
        // Letters and digits only: the value is used as a raw HMAC key and in env files, never quoted.
        excludePunctuation: true,
      },
      // Deleting the key would invalidate every token already sent out.
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'A rotated signing key would invalidate every token already sent out (Reply-To addresses, links in ' +
          'delivered mail); rotation needs key versioning in the token format first.',
      },
    ]);
  }
}
