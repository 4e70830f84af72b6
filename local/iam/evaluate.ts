/**
 * A small IAM policy evaluator for the subset the stack's policies use: Allow and Deny, Action and
 * NotAction, Resource and NotResource with `*` and `?` wildcards, Principal (AWS and Service), and
 * the condition operators below (with `IfExists` and the `ForAllValues:` / `ForAnyValue:` set
 * qualifiers). It follows AWS's evaluation logic for one account: an explicit Deny in any policy
 * wins; otherwise an Allow in an identity policy, or in the resource's own policy for the
 * principal, allows; otherwise the request is implicitly denied.
 */

export type PolicyValue = string | readonly string[];

/** One statement as CloudFormation and IAM write it. */
export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: PolicyValue;
  readonly NotAction?: PolicyValue;
  readonly Resource?: PolicyValue;
  readonly NotResource?: PolicyValue;
  readonly Principal?: '*' | { readonly AWS?: PolicyValue; readonly Service?: PolicyValue };
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, PolicyValue | boolean>>>>;
}

/** Who calls: a role (a Lambda function's, or one a service assumed) or an AWS service itself. */
export type Principal = { readonly kind: 'role'; readonly arn: string } | { readonly kind: 'service'; readonly service: string };

/** A request as IAM sees it: one action on one resource, with its request context. */
export interface AuthorizationRequest {
  readonly principal: Principal;
  readonly action: string;
  readonly resource: string;
  /** Condition keys (case-insensitive names) and their values. */
  readonly context: Readonly<Record<string, string | readonly string[] | boolean>>;
}

export type Decision = 'allow' | 'explicit-deny' | 'implicit-deny';

const compiled = new Map<string, RegExp>();

/** `*` and `?` wildcards of IAM, matched on the whole string. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    regex = new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
    // The policies are few and fixed: the cache stays small.
    compiled.set(key, regex);
  }
  return regex.test(value);
}

const list = (value: PolicyValue | undefined): readonly string[] => (value === undefined ? [] : typeof value === 'string' ? [value] : value);

function matchesAction(statement: PolicyStatement, action: string): boolean {
  if (statement.Action !== undefined) return list(statement.Action).some((a) => wildcardMatch(a, action, true));
  if (statement.NotAction !== undefined) return !list(statement.NotAction).some((a) => wildcardMatch(a, action, true));
  return false;
}

function matchesResource(statement: PolicyStatement, resource: string): boolean {
  if (statement.Resource !== undefined) return list(statement.Resource).some((r) => wildcardMatch(r, resource));
  if (statement.NotResource !== undefined) return !list(statement.NotResource).some((r) => wildcardMatch(r, resource));
  return false;
}

function matchesPrincipal(statement: PolicyStatement, principal: Principal): boolean {
  const p = statement.Principal;
  if (p === undefined) return false;
  if (p === '*') return true;
  if (principal.kind === 'service') return list(p.Service).includes(principal.service) || list(p.AWS).includes('*');
  // An account principal (`arn:aws:iam::<account>:root`) only delegates to the account's own IAM
  // policies: it never allows by itself, so it is not matched here.
  return list(p.AWS).some((a) => a === '*' || a === principal.arn);
}

function contextValue(context: AuthorizationRequest['context'], key: string): readonly string[] | undefined {
  const wanted = key.toLowerCase();
  for (const [name, value] of Object.entries(context)) {
    if (name.toLowerCase() !== wanted) continue;
    if (typeof value === 'boolean') return [String(value)];
    return typeof value === 'string' ? [value] : value;
  }
  return undefined;
}

type Comparator = (policyValue: string, requestValue: string) => boolean;

const comparators: Record<string, { compare: Comparator; negated: boolean }> = {
  StringEquals: { compare: (p, r) => p === r, negated: false },
  StringNotEquals: { compare: (p, r) => p === r, negated: true },
  StringEqualsIgnoreCase: { compare: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  StringNotEqualsIgnoreCase: { compare: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: true },
  StringLike: { compare: (p, r) => wildcardMatch(p, r), negated: false },
  StringNotLike: { compare: (p, r) => wildcardMatch(p, r), negated: true },
  ArnEquals: { compare: (p, r) => p === r, negated: false },
  ArnNotEquals: { compare: (p, r) => p === r, negated: true },
  ArnLike: { compare: (p, r) => arnLike(p, r), negated: false },
  ArnNotLike: { compare: (p, r) => arnLike(p, r), negated: true },
  Bool: { compare: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
};

/** ArnLike compares the six colon-separated parts one by one, each with wildcards. */
function arnLike(pattern: string, arn: string): boolean {
  const p = pattern.split(':');
  const a = arn.split(':');
  if (p.length < 6 || a.length < 6) return wildcardMatch(pattern, arn);
  const head = (parts: string[]) => [...parts.slice(0, 5), parts.slice(5).join(':')];
  const [hp, ha] = [head(p), head(a)];
  return hp.every((part, i) => wildcardMatch(part, ha[i]));
}

/** One condition operator block: every key must hold (AND); a key holds when any of its values matches (OR). */
function conditionHolds(operator: string, block: Readonly<Record<string, PolicyValue | boolean>>, context: AuthorizationRequest['context']): boolean {
  let name = operator;
  let qualifier: 'all' | 'any' | undefined;
  if (name.startsWith('ForAllValues:')) [qualifier, name] = ['all', name.slice('ForAllValues:'.length)];
  else if (name.startsWith('ForAnyValue:')) [qualifier, name] = ['any', name.slice('ForAnyValue:'.length)];
  const ifExists = name.endsWith('IfExists');
  if (ifExists) name = name.slice(0, -'IfExists'.length);

  return Object.entries(block).every(([key, raw]) => {
    const wanted = (typeof raw === 'boolean' ? [String(raw)] : list(raw)).map(String);
    const values = contextValue(context, key);
    if (name === 'Null') {
      const isNull = values === undefined || values.length === 0;
      return wanted.some((w) => (w.toLowerCase() === 'true') === isNull);
    }
    const op = comparators[name];
    if (!op) throw new Error(`Local IAM: condition operator ${operator} is not supported`);
    if (values === undefined) {
      if (ifExists || qualifier === 'all') return true;
      return op.negated;
    }
    const one = (value: string) => {
      const hit = wanted.some((w) => op.compare(w, value));
      return op.negated ? !hit : hit;
    };
    if (qualifier === 'all') return values.every(one);
    if (qualifier === 'any') return values.some(one);
    // A single-valued key: a negated operator holds when no value matches.
    return op.negated ? values.every(one) : values.some(one);
  });
}

function applies(statement: PolicyStatement, request: AuthorizationRequest, withPrincipal: boolean): boolean {
  if (withPrincipal && !matchesPrincipal(statement, request.principal)) return false;
  if (!matchesAction(statement, request.action)) return false;
  if (!matchesResource(statement, request.resource)) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, block]) => conditionHolds(operator, block, request.context));
}

/** What one policy says about the request: `explicit-deny`, `allow`, or nothing (`implicit-deny`). */
export function evaluatePolicy(statements: readonly PolicyStatement[], request: AuthorizationRequest, kind: 'identity' | 'resource'): Decision {
  const matching = statements.filter((s) => applies(s, request, kind === 'resource'));
  if (matching.some((s) => s.Effect === 'Deny')) return 'explicit-deny';
  return matching.some((s) => s.Effect === 'Allow') ? 'allow' : 'implicit-deny';
}

/**
 * The decision for a request within one account: the principal's identity policies (none for a
 * service principal) and the resource's policy, if it has one.
 */
export function authorize(request: AuthorizationRequest, identity: readonly PolicyStatement[], resourcePolicy: readonly PolicyStatement[] = []): Decision {
  const byIdentity = request.principal.kind === 'role' ? evaluatePolicy(identity, request, 'identity') : 'implicit-deny';
  const byResource = evaluatePolicy(resourcePolicy, request, 'resource');
  if (byIdentity === 'explicit-deny' || byResource === 'explicit-deny') return 'explicit-deny';
  if (byIdentity === 'allow' || byResource === 'allow') return 'allow';
  return 'implicit-deny';
}
