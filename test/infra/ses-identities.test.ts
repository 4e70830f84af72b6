import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { IDENTITY_TAGS } from '../../shared/platform/core/ports';
import { actionsOf, logicalId, statementsOfRole, type Statement } from './template-helpers';

/**
 * SES identities are account-wide: the stack's functions may create identities only tagged as this
 * deployment's, and change or delete only identities carrying that tag, so another application's
 * identity (or one made by hand) is out of their reach whatever the code does.
 */
let stack: EmailApiStack;
let template: Template;

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about grants, not code (stack.test.ts bundles every function).
beforeAll(() => {
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomTest', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain: 'reply.example.org' });
  template = Template.fromStack(stack);
});

type ConditionedStatement = Statement & { Condition?: Record<string, Record<string, unknown>> };

/** Every function of the stack with its role's Allow statements. */
function roles(): [string, ConditionedStatement[]][] {
  const functions = [
    ...Object.entries(stack.api.functions),
    ...Object.entries(stack.workers.functions),
    ...Object.entries(stack.scheduling.functions),
    ['inbound', stack.inbound!.function] as const,
  ];
  return functions.map(([name, fn]) => [name, statementsOfRole(template, logicalId(fn.function.role!)) as ConditionedStatement[]]);
}

const grants = (statements: ConditionedStatement[], action: string) => statements.filter((s) => actionsOf(s).includes(action));
const environmentOf = (name: string) => {
  const fn = [...Object.entries(stack.api.functions), ...Object.entries(stack.scheduling.functions)].find(([n]) => n === name)![1];
  return template.toJSON().Resources[logicalId(fn.function)].Properties.Environment.Variables as Record<string, unknown>;
};

/** This deployment's tag value: the table's generated name (a Ref), which a destroy and redeploy change, unlike the stack's name. */
const deployment = () => ({ Ref: logicalId(stack.storage.table) });

describe('SES identity grants', () => {
  it.each(['ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes'])('%s is granted only on identities tagged as this deployment\'s', (action) => {
    const granted = roles().flatMap(([name, statements]) => grants(statements, action).map((s) => [name, s] as const));
    expect(granted.map(([name]) => name).sort()).toEqual(['domains', 'partner']);
    for (const [, statement] of granted) {
      expect(statement.Condition).toEqual({ StringEquals: { [`aws:ResourceTag/${IDENTITY_TAGS.deployment}`]: deployment() } });
    }
  });

  it('ses:CreateEmailIdentity is granted only with this deployment\'s tag in the request, and no other tag keys', () => {
    const granted = roles().flatMap(([name, statements]) => grants(statements, 'ses:CreateEmailIdentity').map((s) => [name, s] as const));
    expect(granted.map(([name]) => name).sort()).toEqual(['domains', 'partner']);
    for (const [, statement] of granted) {
      expect(statement.Condition).toEqual({
        StringEquals: { [`aws:RequestTag/${IDENTITY_TAGS.deployment}`]: deployment() },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [IDENTITY_TAGS.deployment, IDENTITY_TAGS.project] },
      });
    }
  });

  it('no function may tag or untag identities (which would let it adopt another application\'s)', () => {
    for (const [, statements] of roles()) {
      expect(statements.flatMap(actionsOf).filter((a) => /^ses:(TagResource|UntagResource|\*)$/.test(a))).toEqual([]);
    }
  });

  it.each(['pages', 'domain-recheck'])('%s only reads identities: it may neither create, change nor delete one', (name) => {
    const statements = roles().find(([n]) => n === name)![1];
    expect(grants(statements, 'ses:GetEmailIdentity')).not.toHaveLength(0);
    for (const action of ['ses:CreateEmailIdentity', 'ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes']) {
      expect(grants(statements, action)).toEqual([]);
    }
  });

  it.each(['domains', 'partner', 'pages', 'domain-recheck'])("%s knows the tag value it creates identities with (SES_IDENTITY_OWNER, the table's generated name)", (name) => {
    expect(environmentOf(name).SES_IDENTITY_OWNER).toEqual(deployment());
  });

  it("the tag value is the deployment's, not the stack's name: a redeploy under the same name does not own the old deployment's identities", () => {
    // The table has no fixed name: CloudFormation generates a new one at each creation of the stack.
    expect(template.toJSON().Resources[logicalId(stack.storage.table)].Properties.TableName).toBeUndefined();
    expect(JSON.stringify(roles().flatMap(([, statements]) => statements.filter((s) => s.Condition)))).not.toContain('"MailroomTest"');
  });
});
