import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { IDENTITY_TAGS } from '../shared/platform/core/ports';

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
  /**
   * The value of the `mailroom:stack` tag this deployment puts on the identities it creates, given to
   * functions as SES_IDENTITY_OWNER: `props.deployment`, a name CloudFormation generates when it
   * creates the stack (the table's). Not the stack's name, which a destroy and redeploy reuse: the
   * new stack would take the old one's identities, which its table knows nothing of, for its own.
   */
  public readonly identityOwner: string;

  /**
   * @param props.deployment a value unique to this instance of the stack (a generated physical name,
   *   a token), new at every creation of the stack and unchanged by its updates
   */
  constructor(scope: Construct, id: string, props: { readonly deployment: string }) {
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
    this.identityOwner = props.deployment;
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

  /** ARN pattern of this deployment's SES tenants (`tenant/<name>/<id>`, names `mr-<project id>`). */
  get tenantArn(): string {
    return Stack.of(this).formatArn({ service: 'ses', resource: 'tenant', resourceName: 'mr-*' });
  }

  /** Lets a function read a tenant's state (GetTenant: its sending status). */
  grantReadTenants(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions: ['ses:GetTenant'], resourceArns: [this.tenantArn] });
  }

  /**
   * Lets a function create tenants and associate identities and the configuration set with them.
   * CreateTenantResourceAssociation is authorized against the tenant and the associated resource
   * (the service authorization reference for Amazon SES v2).
   */
  grantManageTenants(grantee: iam.IGrantable): iam.Grant {
    const create = iam.Grant.addToPrincipal({ grantee, actions: ['ses:CreateTenant'], resourceArns: [this.tenantArn] });
    const associate = iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:CreateTenantResourceAssociation'],
      resourceArns: [this.tenantArn, this.identityArn, this.configurationSetArn],
    });
    return create.combine(associate).combine(this.grantReadTenants(grantee));
  }

  /** Lets a function read any identity's state (verification, DKIM, MAIL FROM, tags). */
  grantReadIdentities(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({ grantee, actions: ['ses:GetEmailIdentity'], resourceArns: [this.identityArn] });
  }

  /**
   * Lets a function create identities, tagged as this deployment's, and change or delete only the
   * identities carrying that tag: SES identities are account-wide, and another application's (or one
   * made by hand) must stay out of reach. SES v2 takes `aws:RequestTag` on CreateEmailIdentity and
   * `aws:ResourceTag` on DeleteEmailIdentity and PutEmailIdentityMailFromAttributes (the service
   * authorization reference for Amazon SES v2; docs/decisions.md).
   */
  grantManageIdentities(grantee: iam.IGrantable): iam.Grant {
    const tag = IDENTITY_TAGS.deployment;
    const create = iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:CreateEmailIdentity'],
      // CreateEmailIdentity with a configuration set is authorized against the set too.
      resourceArns: [this.identityArn, this.configurationSetArn],
      conditions: {
        StringEquals: { [`aws:RequestTag/${tag}`]: this.identityOwner },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [IDENTITY_TAGS.deployment, IDENTITY_TAGS.project] },
      },
    });
    const change = iam.Grant.addToPrincipal({
      grantee,
      actions: ['ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes'],
      resourceArns: [this.identityArn],
      conditions: { StringEquals: { [`aws:ResourceTag/${tag}`]: this.identityOwner } },
    });
    return create.combine(change).combine(this.grantReadIdentities(grantee));
  }
}
