/** Small readers over a synthesized template, shared by the infra tests. */
import { CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Logical ID of the L1 resource behind a construct. */
export function logicalId(construct: IConstruct): string {
  const cfn = CfnElement.isCfnElement(construct) ? construct : construct.node.defaultChild;
  if (!CfnElement.isCfnElement(cfn)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return Stack.of(cfn).resolve(cfn.logicalId) as string;
}

/** Every Allow statement of the inline policies attached to a role. */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleLogicalId })))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => s.Effect === 'Allow');
}

/** Actions of a statement as a list. */
export function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** Resources of a statement as a list. */
export function resourcesOf(statement: Statement): unknown[] {
  return Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
}

/** Whether some statement allows an action matching `action` (exact, or a `prefix:*` pattern). */
export function allows(statements: Statement[], action: string | RegExp, resource?: unknown): boolean {
  return statements.some(
    (s) =>
      actionsOf(s).some((a) => (typeof action === 'string' ? a === action : action.test(a))) &&
      (resource === undefined || resourcesOf(s).some((r) => JSON.stringify(r) === JSON.stringify(resource))),
  );
}

/** Unsuppressed cdk-nag errors of the AWS Solutions pack, as readable lines. */
export function nagErrors(stack: Stack): string[] {
  return Annotations.fromStack(stack)
    .findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))
    .map((e) => `${e.id}: ${String(e.entry.data).split('\n')[0]}`);
}

/**
 * The value of a template expression made of strings, Ref (to the pseudo parameters given),
 * Fn::Join, Fn::Split and Fn::Select: what CloudFormation would compute at deploy time.
 */
export function evaluate(expr: unknown, refs: Readonly<Record<string, string>>): string {
  const value = (e: unknown): unknown => {
    if (typeof e === 'string') return e;
    const [[fn, arg]] = Object.entries(e as Record<string, any>);
    if (fn === 'Ref') {
      if (!(arg in refs)) throw new Error(`No value for Ref ${arg}`);
      return refs[arg];
    }
    if (fn === 'Fn::Join') return (arg[1] as unknown[]).map((p) => value(p)).join(arg[0]);
    if (fn === 'Fn::Split') return String(value(arg[1])).split(arg[0]);
    if (fn === 'Fn::Select') return (value(arg[1]) as unknown[])[arg[0]];
    throw new Error(`Cannot evaluate ${fn}`);
  };
  return String(value(expr));
}
