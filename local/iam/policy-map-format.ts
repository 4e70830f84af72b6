import type { PolicyStatement } from './evaluate';

/** The account and region of the local cloud's ARNs (the synthesized stack's env, the local Lambda context). */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

/** The local cloud's inbound domain (the functions' default). */
export const LOCAL_INBOUND_DOMAIN = 'reply.mailroom.local';

/**
 * What the stack allows, as local/iam/synth-policy-map.ts reads it from the synthesized template:
 * each function's role statements (by function name, plus `campaignTimerRole`, the role EventBridge
 * Scheduler assumes for the campaign engine's timers) and each resource policy with the ARNs of the
 * queues, topics and buckets it is attached to. Resource names are `${name}` placeholders
 * (`${table}`, `${queue.send}`, `${payloads}`...), bound to the local ones by bindPolicyMap.
 */
export interface PolicyMap {
  readonly roles: Record<string, PolicyStatement[]>;
  readonly resourcePolicies: { readonly resources: string[]; readonly statements: PolicyStatement[] }[];
}
