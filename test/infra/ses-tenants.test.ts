import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { actionsOf, logicalId, statementsOfRole, type Statement } from './template-helpers';

/**
 * SES tenants (a project's own reputation): only the functions that put a project on a tenant or
 * register its identities may create tenants and associate resources with them, only tenants named
 * as this stack names them (`mr-<project id>`); the health routes only read a tenant's status.
 */
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomTest', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain: 'reply.example.org' });
  template = Template.fromStack(stack);
});

/** Every function of the stack with its role's Allow statements. */
function roles(): [string, Statement[]][] {
  const functions = [...Object.entries(stack.api.functions), ...Object.entries(stack.workers.functions), ...Object.entries(stack.scheduling.functions), ['inbound', stack.inbound!.function] as const];
  return functions.map(([name, fn]) => [name, statementsOfRole(template, logicalId(fn.function.role!))]);
}

const holders = (action: string) =>
  roles()
    .filter(([, statements]) => statements.some((s) => actionsOf(s).includes(action)))
    .map(([name]) => name)
    .sort();
const resourcesOf = (name: string, action: string) =>
  roles()
    .find(([n]) => n === name)![1]
    .filter((s) => actionsOf(s).includes(action))
    .flatMap((s) => [s.Resource].flat());

describe('SES tenant grants', () => {
  it('only the domains and partner groups create tenants and associate resources with them', () => {
    expect(holders('ses:CreateTenant')).toEqual(['domains', 'partner']);
    expect(holders('ses:CreateTenantResourceAssociation')).toEqual(['domains', 'partner']);
  });

  it('tenants are reached only by the names this stack gives them: arn:aws:ses:<region>:<account>:tenant/mr-*', () => {
    for (const name of ['domains', 'partner']) {
      expect(JSON.stringify(resourcesOf(name, 'ses:CreateTenant'))).toContain(':tenant/mr-*');
      expect(JSON.stringify(resourcesOf(name, 'ses:CreateTenant'))).not.toMatch(/"\*"/);
    }
  });

  it('an association names the tenant, the identities and this stack\'s configuration set, nothing else', () => {
    const resources = JSON.stringify(resourcesOf('partner', 'ses:CreateTenantResourceAssociation'));
    expect(resources).toContain(':tenant/mr-*');
    expect(resources).toContain(':identity/*');
    expect(resources).toContain(':configuration-set/');
    expect(resources).not.toContain(':template/');
  });

  it('the health routes read a tenant\'s status, and no worker touches tenants (a send names its tenant under ses:SendEmail)', () => {
    expect(holders('ses:GetTenant')).toEqual(['domains', 'partner']);
    for (const name of Object.keys(stack.workers.functions)) expect(resourcesOf(name, 'ses:CreateTenant')).toEqual([]);
  });
});
