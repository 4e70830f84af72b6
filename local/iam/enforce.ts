import { AsyncLocalStorage } from 'node:async_hooks';
import { Command } from '@smithy/core/client';
import { authorize, type AuthorizationRequest, type Principal, type PolicyStatement } from './evaluate';
import { LOCAL_ACCOUNT } from './policy-map-format';
import type { PolicyMap } from './policy-map-format';
import { requestsOf, type ActionRequest } from './requests';

/** Who is calling: a function (by its name in the route table), a role, or an AWS service with its source. */
export type Caller =
  | { readonly kind: 'role'; readonly name: string }
  | { readonly kind: 'service'; readonly service: string; readonly sourceArn?: string };

const current = new AsyncLocalStorage<Caller>();
let policies: PolicyMap | undefined;
let resourceTags: (resource: string) => Readonly<Record<string, string>> | undefined = () => undefined;

/** Where the tags of a resource come from (the emulators that keep them), for aws:ResourceTag conditions. */
export function setResourceTagSource(source: typeof resourceTags): void {
  resourceTags = source;
}
const denied: string[] = [];

/** The calls refused since the last call of this function (oldest first), for tests and logs. */
export function takeDenials(): string[] {
  return denied.splice(0, denied.length);
}

/** The policy map in force (bound to the local names), or undefined when IAM is not enforced. */
export function enforcedPolicies(): PolicyMap | undefined {
  return policies;
}

/** The caller the current code runs as, or undefined outside runAs. */
export function currentCaller(): Caller | undefined {
  return current.getStore();
}

/** Runs `work` as `caller`: every AWS call it makes, however deep, is authorized as that caller's. */
export function runAs<T>(caller: Caller | string, work: () => T): T {
  return current.run(typeof caller === 'string' ? { kind: 'role', name: caller } : caller, work);
}

/**
 * Runs `work` as no caller, even inside runAs: what the local cloud does on AWS's own account, never
 * a function's (the fault suite's event source sending a late duplicate or shortening a failed
 * record's visibility, as SQS and Lambda's event source would), so no role's grants apply to it.
 */
export function outsideAnyCaller<T>(work: () => T): T {
  return current.exit(work);
}

/** Starts enforcing this (bound) policy map; undefined stops. Calls made outside runAs are never checked. */
export function enforcePolicies(map: PolicyMap | undefined): void {
  policies = map;
}

/** The ARN of a function's role, as its policies and AWS's denial messages name it. */
export const roleArn = (name: string) => `arn:aws:iam::${LOCAL_ACCOUNT}:role/${name}`;

/** The error AWS answers a denied call with: 403, `AccessDenied` (S3, SQS) or `AccessDeniedException`. */
export class LocalAccessDenied extends Error {
  readonly $fault = 'client';
  readonly $metadata: { httpStatusCode: number; requestId: string; attempts: number; totalRetryDelay: number };
  readonly Code: string;
  constructor(clientName: string, message: string) {
    super(message);
    this.name = clientName === 'S3Client' || clientName === 'SQSClient' ? 'AccessDenied' : 'AccessDeniedException';
    this.Code = this.name;
    this.$metadata = { httpStatusCode: 403, requestId: 'local-iam', attempts: 1, totalRetryDelay: 0 };
  }
}

function principalOf(caller: Caller): Principal {
  return caller.kind === 'role' ? { kind: 'role', arn: roleArn(caller.name) } : { kind: 'service', service: caller.service };
}

function describe(caller: Caller): string {
  return caller.kind === 'role' ? `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${caller.name}/${caller.name}` : caller.service;
}

/** The resource policies attached to the resource (a queue, a topic, a bucket and its objects). */
function resourcePolicyOf(map: PolicyMap, resource: string): PolicyStatement[] {
  return map.resourcePolicies.filter((p) => p.resources.some((r) => resource === r || resource.startsWith(`${r}/`))).flatMap((p) => p.statements);
}

/** The decision for one request of `caller` under the map; `undefined` when it is allowed. */
export function denial(map: PolicyMap, caller: Caller, request: ActionRequest): string | undefined {
  const context: AuthorizationRequest['context'] = {
    // Every SDK call of a Lambda function goes over HTTPS; locally the emulators speak plain HTTP.
    'aws:SecureTransport': true,
    'aws:PrincipalAccount': LOCAL_ACCOUNT,
    ...(caller.kind === 'role' ? { 'aws:PrincipalArn': roleArn(caller.name) } : { 'aws:SourceAccount': LOCAL_ACCOUNT, ...(caller.sourceArn ? { 'aws:SourceArn': caller.sourceArn } : {}) }),
    ...Object.fromEntries(Object.entries(resourceTags(request.resource) ?? {}).map(([k, v]) => [`aws:ResourceTag/${k}`, v])),
    ...request.context,
  };
  const identity = caller.kind === 'role' ? map.roles[caller.name] : [];
  if (caller.kind === 'role' && !identity) return `Local IAM: no role named ${caller.name} in the stack's policy map`;
  const full: AuthorizationRequest = { principal: principalOf(caller), action: request.action, resource: request.resource, context };
  const decision = authorize(full, identity ?? [], resourcePolicyOf(map, request.resource));
  if (decision === 'allow') return undefined;
  const why = decision === 'explicit-deny' ? 'with an explicit deny in a policy' : `because no ${caller.kind === 'role' ? 'identity-based' : 'resource-based'} policy allows the ${request.action} action`;
  return `User: ${describe(caller)} is not authorized to perform: ${request.action} on resource: ${request.resource} ${why}`;
}

/** Whether `caller` may make `request` under the policies in force: undefined if so, else the refusal (recorded). */
export function refusal(caller: Caller, request: ActionRequest): string | undefined {
  const message = policies && denial(policies, caller, request);
  if (message) denied.push(message);
  return message;
}

/** Throws AccessDenied unless the current caller may make this call (nothing happens outside runAs or with enforcement off). */
export function checkCall(clientName: string, commandName: string, input: Record<string, unknown>): void {
  const caller = current.getStore();
  if (!policies || !caller) return;
  for (const request of requestsOf(clientName, commandName, input)) {
    const message = denial(policies, caller, request);
    if (!message) continue;
    // Kept (the last 100) so that a test can say which grant was missing.
    denied.push(message);
    if (denied.length > 100) denied.shift();
    throw new LocalAccessDenied(clientName, message);
  }
}

/**
 * S3 answers a missing key with 404 only to a caller that may list the bucket; anyone else gets 403
 * AccessDenied (so that keys cannot be probed). The emulator always answers 404.
 */
function missingObjectAsAws(clientName: string, commandName: string, input: Record<string, unknown>, error: unknown): unknown {
  const caller = current.getStore();
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  if (!policies || !caller || clientName !== 'S3Client' || status !== 404) return error;
  if (commandName !== 'GetObjectCommand' && commandName !== 'HeadObjectCommand') return error;
  const message = denial(policies, caller, { action: 's3:ListBucket', resource: `arn:aws:s3:::${String(input.Bucket)}` });
  if (!message) return error;
  denied.push(message);
  return new LocalAccessDenied(clientName, `${message} (S3 answers 403 for a missing key to a caller without s3:ListBucket)`);
}

type Handler = (args: { input: Record<string, unknown> }) => Promise<unknown>;
let installed = false;

/**
 * Puts the check in front of every AWS SDK v3 command in this process, sent or presigned: the
 * SDK resolves each command's handler through Command.resolveMiddlewareWithContext, which names
 * the client and the command (the DynamoDB document client's commands resolve through the
 * low-level command they wrap).
 */
export function installIamCheck(): void {
  if (installed) return;
  installed = true;
  const proto = Command.prototype as unknown as { resolveMiddlewareWithContext: (...args: any[]) => Handler };
  const original = proto.resolveMiddlewareWithContext;
  proto.resolveMiddlewareWithContext = function (this: unknown, ...args: any[]): Handler {
    const handler = original.apply(this, args);
    const { clientName, commandName } = args[3] as { clientName: string; commandName: string };
    return async (call) => {
      checkCall(clientName, commandName, call.input ?? {});
      try {
        return await handler(call);
      } catch (error) {
        throw missingObjectAsAws(clientName, commandName, call.input ?? {}, error);
      }
    };
  };
}
