import type { QueueName } from '../../shared/platform/core/queues';
import { enforcePolicies, installIamCheck, runAs } from './enforce';
import { LOCAL_ACCOUNT, LOCAL_REGION, type PolicyMap } from './policy-map-format';
import { bindPolicyMap, stackPolicyMap } from './policy-map';
import { IDENTITY_TAGS } from '../../shared/platform/core/ports';

/** How a local cloud enforces IAM: on (the default) with the stack's policies, possibly adjusted by a test, or off. */
export type LocalIamOption = false | { readonly adjust?: (map: PolicyMap) => PolicyMap };

/** The names the local cloud gives the stack's resources. */
export interface LocalNames {
  readonly tableName: string;
  readonly bucket: string;
  readonly queueUrls: Readonly<Record<QueueName, string>>;
  readonly configurationSet: string;
}

/** The local name of the SES events topic and of the role EventBridge Scheduler assumes for campaign timers. */
export const SES_EVENTS_TOPIC = 'mailroom-ses-events';
export const CAMPAIGN_TIMER_ROLE = 'campaignTimerRole';
export const sesEventsTopicArn = `arn:aws:sns:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${SES_EVENTS_TOPIC}`;

/**
 * Binds the stack's policy map to the local resources and enforces it on every AWS call a function
 * makes from now on. The inbound bucket is the payload bucket locally (its objects under `inbound/`).
 */
export function startLocalIam(names: LocalNames, option: LocalIamOption | undefined): PolicyMap | undefined {
  if (option === false) {
    enforcePolicies(undefined);
    return undefined;
  }
  const bindings: Record<string, string> = {
    table: names.tableName,
    payloads: names.bucket,
    inbound: names.bucket,
    configurationSet: names.configurationSet,
    sesEventsTopic: SES_EVENTS_TOPIC,
    campaignTimerRole: CAMPAIGN_TIMER_ROLE,
    tokenSecret: 'mailroom-token-secret',
  };
  for (const [name, url] of Object.entries(names.queueUrls)) {
    const queueName = url.split('/').filter(Boolean).pop() ?? name;
    bindings[`queue.${name}`] = queueName;
    bindings[`dlq.${name}`] = `${queueName}-dlq`;
  }
  const stack = bindPolicyMap(stackPolicyMap(), bindings);
  const map = option?.adjust ? option.adjust(stack) : stack;
  installIamCheck();
  enforcePolicies(map);
  return map;
}

/**
 * The tag value that marks the SES identities of a deployment whose table is `tableName`, read from
 * the stack's own policy (the condition on `ses:CreateEmailIdentity`): what the functions of that
 * deployment get as SES_IDENTITY_OWNER. Two local clouds with different tables are two deployments
 * of one stack, as a destroy and a redeploy are.
 */
export function identityOwnerFor(tableName: string): string {
  const map = bindPolicyMap(stackPolicyMap(), { table: tableName });
  const key = `aws:RequestTag/${IDENTITY_TAGS.deployment}`;
  const values = new Set<unknown>();
  for (const statement of Object.values(map.roles).flat()) {
    const actions = ([] as unknown[]).concat(statement.Action ?? []);
    if (statement.Effect === 'Allow' && actions.includes('ses:CreateEmailIdentity')) values.add(statement.Condition?.StringEquals?.[key]);
  }
  const [value] = values;
  if (values.size !== 1 || typeof value !== 'string' || value.includes('${')) throw new Error(`The stack's policies name no single local value for ${key}: ${JSON.stringify([...values])}`);
  return value;
}

/** Every method of `target`, run as `caller` (a port used on a role's or a service's behalf). */
export function actingAs<T extends object>(caller: Parameters<typeof runAs>[0], target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => runAs(caller, () => (value as (...a: unknown[]) => unknown).apply(object, args));
    },
  });
}
