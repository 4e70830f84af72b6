/**
 * Synthesizes the CDK stack (code bundling skipped: only the policies matter) and writes its policy
 * map: every function's role statements and every resource policy, with this stack's resources
 * written as `${name}` placeholders that the local cloud binds to its own tables, queues and buckets.
 * Run as a child process by local/iam/policy-map.ts: `tsx local/iam/synth-policy-map.ts <out.json>`.
 */
import fs from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IConstruct } from 'constructs';
import { EmailApiStack } from '../../lib/email-api-stack';
import type { CampaignTimers } from '../../lib/campaign-timers';
import { LOCAL_ACCOUNT, LOCAL_INBOUND_DOMAIN, LOCAL_REGION, type PolicyMap } from './policy-map-format';
import type { PolicyStatement } from './evaluate';

type Json = unknown;
type Resource = { Type: string; Properties?: Record<string, Json> };
type Template = { Resources: Record<string, Resource> };

/** The logical ID of a construct's CloudFormation resource. */
function idOf(construct: IConstruct): string {
  const cfn = construct.node.defaultChild ?? construct;
  return Stack.of(construct).resolve((cfn as unknown as { logicalId: string }).logicalId) as string;
}

/** The stack's resources the local cloud has a counterpart of, by logical ID: the name it binds. */
function symbolsOf(stack: EmailApiStack): Map<string, string> {
  const symbols = new Map<string, string>();
  symbols.set(idOf(stack.storage.table), 'table');
  symbols.set(idOf(stack.storage.payloadBucket), 'payloads');
  symbols.set(idOf(inboundOf(stack).bucket), 'inbound');
  for (const [name, queue] of Object.entries(stack.queues.queues)) symbols.set(idOf(queue), `queue.${name}`);
  for (const [name, queue] of Object.entries(stack.queues.deadLetterQueues)) symbols.set(idOf(queue), `dlq.${name}`);
  symbols.set(idOf(stack.ses.configurationSet), 'configurationSet');
  symbols.set(idOf(stack.tokenSecret.secret), 'tokenSecret');
  symbols.set(idOf(stack.sesEvents.topic), 'sesEventsTopic');
  symbols.set(idOf(timersOf(stack).role), 'campaignTimerRole');
  if (stack.monitoring.alarmTopic instanceof Topic) symbols.set(idOf(stack.monitoring.alarmTopic), 'alarmTopic');
  return symbols;
}

/** The stack's receiving, which the local cloud always has. */
function inboundOf(stack: EmailApiStack): NonNullable<EmailApiStack['inbound']> {
  if (!stack.inbound) throw new Error('The policy map needs the stack with receiving on (inboundDomain)');
  return stack.inbound;
}

const timersOf = (stack: EmailApiStack) => stack.node.findChild('CampaignTimers') as CampaignTimers;

const pseudo: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackId': `arn:aws:cloudformation:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stack/Mailroom/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d`,
};
const arnBase = (service: string) => `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}`;

/**
 * The policy map of a stack synthesized with the local account and region as its env: role
 * statements per function (and the campaign timer role), and every resource policy.
 */
export function policyMapOf(stack: EmailApiStack, template: Template): PolicyMap {
  const resources = template.Resources;
  const symbols = symbolsOf(stack);

  /** A resource's attribute as a string, its physical name as a `${name}` placeholder. */
  const attribute = (logicalId: string, attr: string): string => {
    const name = `\${${symbols.get(logicalId) ?? logicalId}}`;
    switch (resources[logicalId]?.Type) {
      case 'AWS::DynamoDB::Table':
        return attr === 'Arn' ? `${arnBase('dynamodb')}:table/${name}` : name;
      case 'AWS::SQS::Queue':
        return attr === 'Arn' ? `${arnBase('sqs')}:${name}` : attr === 'QueueName' ? name : `queue-url:${name}`;
      case 'AWS::S3::Bucket':
        return attr === 'Arn' ? `arn:aws:s3:::${name}` : name;
      case 'AWS::SNS::Topic':
        return attr === 'TopicName' ? name : `${arnBase('sns')}:${name}`;
      case 'AWS::SecretsManager::Secret':
        return `${arnBase('secretsmanager')}:secret:${name}`;
      case 'AWS::IAM::Role':
        return attr === 'Arn' ? `arn:aws:iam::${LOCAL_ACCOUNT}:role/${name}` : name;
      case 'AWS::Lambda::Function':
        return attr === 'Arn' ? `${arnBase('lambda')}:function:${name}` : name;
      default:
        return attr === 'Ref' ? name : `${name}.${attr}`;
    }
  };

  /** Resolves the intrinsic functions the stack's policies use. */
  const resolve = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, Json>);
    if (entries.length === 1) {
      const [fn, arg] = entries[0];
      if (fn === 'Ref') return pseudo[arg as string] ?? attribute(arg as string, 'Ref');
      if (fn === 'Fn::GetAtt') {
        const [id, attr] = Array.isArray(arg) ? (arg as string[]) : String(arg).split('.');
        return attribute(id, attr);
      }
      if (fn === 'Fn::Join') {
        const [sep, parts] = arg as [string, Json[]];
        return (resolve(parts) as Json[]).map(String).join(sep);
      }
      // The inbound bucket's name takes a piece of the stack id (lib/inbound.ts).
      if (fn === 'Fn::Split') {
        const [sep, source] = arg as [string, Json];
        return String(resolve(source)).split(sep);
      }
      if (fn === 'Fn::Select') {
        const [index, list] = arg as [number | string, Json];
        return (resolve(list) as Json[])[Number(index)];
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, resolve(v)]));
  };

  // The inbound bucket's name is fixed at synth time (lib/inbound.ts): its ARN appears as a literal.
  const inboundName = resolve(resources[idOf(inboundOf(stack).bucket)].Properties?.BucketName) as string;
  // The tag value that marks this deployment's SES identities is the table's name (lib/ses.ts): its
  // `Ref` resolves to `${table}`, bound to the local table's name as the functions' SES_IDENTITY_OWNER is.
  const bind = <T>(value: T): T => JSON.parse(JSON.stringify(resolve(value)).split(inboundName).join('${inbound}')) as T;

  /** Every statement of the policies attached to a role (inline ones too). */
  const roleStatements = (roleId: string): PolicyStatement[] => {
    const out: PolicyStatement[] = [];
    for (const resource of Object.values(resources)) {
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      const roles = (resource.Properties?.Roles ?? []) as Json[];
      if (!roles.some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }))) continue;
      out.push(...(resource.Properties?.PolicyDocument as { Statement: PolicyStatement[] }).Statement);
    }
    for (const policy of (resources[roleId]?.Properties?.Policies ?? []) as { PolicyDocument: { Statement: PolicyStatement[] } }[]) out.push(...policy.PolicyDocument.Statement);
    return bind(out);
  };

  const functions: Record<string, IConstruct | undefined> = {};
  for (const [name, fn] of Object.entries(stack.api.functions)) functions[name] = fn.function.role;
  for (const [name, fn] of Object.entries(stack.workers.functions)) functions[name] = fn.function.role;
  for (const [name, fn] of Object.entries(stack.scheduling.functions)) functions[name] = fn.function.role;
  functions.inbound = inboundOf(stack).function.function.role;

  const map: PolicyMap = { roles: {}, resourcePolicies: [] };
  for (const [name, role] of Object.entries(functions)) {
    if (!role) throw new Error(`Function ${name} has no role`);
    map.roles[name] = roleStatements(idOf(role));
  }
  map.roles.campaignTimerRole = roleStatements(idOf(timersOf(stack).role));

  const policyTypes: Record<string, { targets: string; attr: string }> = {
    'AWS::SQS::QueuePolicy': { targets: 'Queues', attr: 'Arn' },
    'AWS::SNS::TopicPolicy': { targets: 'Topics', attr: 'Ref' },
    'AWS::S3::BucketPolicy': { targets: 'Bucket', attr: 'Arn' },
  };
  for (const resource of Object.values(resources)) {
    const kind = policyTypes[resource.Type];
    if (!kind) continue;
    const raw = resource.Properties?.[kind.targets];
    const targets = (Array.isArray(raw) ? raw : [raw]) as { Ref: string }[];
    map.resourcePolicies.push({
      // A queue policy names its queues by URL (Ref): the policy belongs to the queue's ARN.
      resources: targets.map((t) => bind(attribute(t.Ref, kind.attr))),
      statements: bind((resource.Properties?.PolicyDocument as { Statement: PolicyStatement[] }).Statement),
    });
  }
  return map;
}

/** The stack as the local cloud runs it (code bundling skipped), with `context`, and its policy map. */
export function synthesizePolicyMap(context: Record<string, string> = {}): PolicyMap {
  // CDK's own CloudFormation validation is skipped: only the policies are read here, and it costs seconds.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context }, builtinCloudFormationValidation: false });
  // Receiving on, as in the local cloud (its inbound domain is the functions' default).
  const stack = new EmailApiStack(app, 'Mailroom', { env: { account: LOCAL_ACCOUNT, region: LOCAL_REGION }, inboundDomain: LOCAL_INBOUND_DOMAIN });
  return policyMapOf(stack, app.synth().getStackByName(stack.stackName).template as Template);
}

if (require.main === module) fs.writeFileSync(process.argv[2], JSON.stringify(synthesizePolicyMap(), null, 1));
