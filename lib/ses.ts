import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** SES sending resources: the configuration set every send names, so that its events reach us. */
export class SesSending extends Construct {
  /** The configuration set; later work adds its event destination. */
  public readonly configurationSet: ses.ConfigurationSet;
  /** Its name, given to functions as SES_CONFIGURATION_SET. */
  public readonly configurationSetName: string;
  /** Its ARN, for IAM policies. */
  public readonly configurationSetArn: string;
  /** ARN pattern of every identity (domain or address) of the account in this region. */
  public readonly identityArn: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
    });
    this.configurationSetName = this.configurationSet.configurationSetName;
    const stack = Stack.of(this);
    this.configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSetName,
    });
    this.identityArn = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  }

  /** Lets the grantee send mail through this configuration set from any identity of the account. */
  grantSend(grantee: iam.IGrantable): iam.Grant {
    // SES authorizes SendEmail against both the sender identity and the configuration set.
    // Identities are verified at run time (domains API), so the identity part cannot be narrower.
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resourceArns: [this.identityArn, this.configurationSetArn],
    });
  }

  /** Lets a function create, read and delete identities and set their MAIL FROM (domains and senders). */
  grantManageIdentities(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes'],
      // CreateEmailIdentity with a configuration set is authorized against the set too.
      resourceArns: [this.identityArn, this.configurationSetArn],
    });
  }
}
