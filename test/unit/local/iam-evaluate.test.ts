import { authorize, evaluatePolicy, wildcardMatch, type AuthorizationRequest, type PolicyStatement } from '../../../local/iam/evaluate';

const role = { kind: 'role', arn: 'arn:aws:iam::000000000000:role/send' } as const;
const request = (over: Partial<AuthorizationRequest> = {}): AuthorizationRequest => ({
  principal: role,
  action: 's3:GetObject',
  resource: 'arn:aws:s3:::payloads/imports/p1/x.csv',
  context: { 'aws:SecureTransport': true },
  ...over,
});
const allow = (over: Partial<PolicyStatement> = {}): PolicyStatement => ({ Effect: 'Allow', Action: 's3:GetObject*', Resource: 'arn:aws:s3:::payloads/*', ...over });

describe('wildcards', () => {
  it('`*` spans any characters, `?` exactly one, on the whole string', () => {
    expect(wildcardMatch('arn:aws:s3:::payloads/*', 'arn:aws:s3:::payloads/a/b')).toBe(true);
    expect(wildcardMatch('arn:aws:s3:::payloads/*', 'arn:aws:s3:::payloads')).toBe(false);
    expect(wildcardMatch('s3:Get?bject', 's3:GetObject')).toBe(true);
    expect(wildcardMatch('s3:Get?bject', 's3:GetObjectAcl')).toBe(false);
  });
  it('actions match without regard to case; resources with it', () => {
    expect(evaluatePolicy([allow({ Action: 'S3:getobject' })], request(), 'identity')).toBe('allow');
    expect(evaluatePolicy([allow({ Resource: 'arn:aws:s3:::PAYLOADS/*' })], request(), 'identity')).toBe('implicit-deny');
  });
});

describe('identity policies', () => {
  it('allow what a statement names and nothing else (implicit deny)', () => {
    expect(authorize(request(), [allow()])).toBe('allow');
    expect(authorize(request({ action: 's3:PutObject' }), [allow()])).toBe('implicit-deny');
    expect(authorize(request({ resource: 'arn:aws:s3:::other/x' }), [allow()])).toBe('implicit-deny');
  });
  it('an explicit Deny wins over any Allow', () => {
    expect(authorize(request(), [allow(), { Effect: 'Deny', Action: 's3:*', Resource: '*' }])).toBe('explicit-deny');
  });
  it('NotAction and NotResource allow everything but what they name', () => {
    expect(authorize(request(), [{ Effect: 'Allow', NotAction: 's3:PutObject', Resource: '*' }])).toBe('allow');
    expect(authorize(request(), [{ Effect: 'Allow', NotAction: 's3:Get*', Resource: '*' }])).toBe('implicit-deny');
    expect(authorize(request(), [{ Effect: 'Allow', Action: '*', NotResource: 'arn:aws:s3:::payloads/*' }])).toBe('implicit-deny');
  });
  it('are not consulted for a service principal', () => {
    expect(authorize(request({ principal: { kind: 'service', service: 'sns.amazonaws.com' } }), [allow()])).toBe('implicit-deny');
  });
});

describe('conditions', () => {
  const passRole: PolicyStatement = { Effect: 'Allow', Action: 'iam:PassRole', Resource: 'arn:aws:iam::000000000000:role/timers', Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } };
  const pass = (context: AuthorizationRequest['context']) => request({ action: 'iam:PassRole', resource: 'arn:aws:iam::000000000000:role/timers', context });
  it('StringEquals holds only for the value named (key names without regard to case)', () => {
    expect(authorize(pass({ 'iam:PassedToService': 'scheduler.amazonaws.com' }), [passRole])).toBe('allow');
    expect(authorize(pass({ 'IAM:passedToService': 'scheduler.amazonaws.com' }), [passRole])).toBe('allow');
    expect(authorize(pass({ 'iam:PassedToService': 'lambda.amazonaws.com' }), [passRole])).toBe('implicit-deny');
    expect(authorize(pass({}), [passRole])).toBe('implicit-deny');
  });
  it('several values of a key are alternatives; several keys must all hold', () => {
    const statement = allow({ Condition: { StringEquals: { 'aws:SourceAccount': ['111', '000'], 'aws:PrincipalAccount': '000' } } });
    expect(authorize(request({ context: { 'aws:SourceAccount': '000', 'aws:PrincipalAccount': '000' } }), [statement])).toBe('allow');
    expect(authorize(request({ context: { 'aws:SourceAccount': '000', 'aws:PrincipalAccount': '222' } }), [statement])).toBe('implicit-deny');
  });
  it('Bool aws:SecureTransport false denies plain HTTP only', () => {
    const ssl: PolicyStatement = { Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:*', Resource: 'arn:aws:s3:::payloads/*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } };
    expect(authorize(request(), [allow()], [ssl])).toBe('allow');
    expect(authorize(request({ context: { 'aws:SecureTransport': false } }), [allow()], [ssl])).toBe('explicit-deny');
  });
  it('ArnLike compares ARN parts with wildcards; IfExists holds when the key is absent', () => {
    const statement = allow({ Condition: { ArnLike: { 'aws:SourceArn': 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:*' } } });
    expect(authorize(request({ context: { 'aws:SourceArn': 'arn:aws:cloudwatch:us-east-1:000000000000:alarm:Dlq' } }), [statement])).toBe('allow');
    expect(authorize(request({ context: { 'aws:SourceArn': 'arn:aws:cloudwatch:us-east-1:111111111111:alarm:Dlq' } }), [statement])).toBe('implicit-deny');
    expect(authorize(request({ context: {} }), [statement])).toBe('implicit-deny');
    expect(authorize(request({ context: {} }), [allow({ Condition: { ArnLikeIfExists: { 'aws:SourceArn': 'arn:aws:sns:*' } } })])).toBe('allow');
  });
  it('ForAllValues:StringLike holds when every value matches (dynamodb:LeadingKeys)', () => {
    const statement = allow({ Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROJECT#p1*'] } } });
    expect(authorize(request({ context: { 'dynamodb:LeadingKeys': ['PROJECT#p1#A', 'PROJECT#p1#B'] } }), [statement])).toBe('allow');
    expect(authorize(request({ context: { 'dynamodb:LeadingKeys': ['PROJECT#p1#A', 'PROJECT#p2'] } }), [statement])).toBe('implicit-deny');
  });
  it('StringNotEquals holds when the key is absent; an unknown operator is an error, not a pass', () => {
    expect(authorize(request({ context: {} }), [allow({ Condition: { StringNotEquals: { 'aws:SourceVpc': 'vpc-1' } } })])).toBe('allow');
    expect(() => authorize(request(), [allow({ Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020-01-01' } } })])).toThrow(/not supported/);
  });
});

describe('resource policies', () => {
  const queue = 'arn:aws:sqs:us-east-1:000000000000:ses-events';
  const topic = 'arn:aws:sns:us-east-1:000000000000:ses-topic';
  const queuePolicy: PolicyStatement[] = [
    { Effect: 'Allow', Principal: { Service: 'sns.amazonaws.com' }, Action: 'sqs:SendMessage', Resource: queue, Condition: { ArnEquals: { 'aws:SourceArn': topic } } },
  ];
  const delivery = (sourceArn: string): AuthorizationRequest => ({ principal: { kind: 'service', service: 'sns.amazonaws.com' }, action: 'sqs:SendMessage', resource: queue, context: { 'aws:SourceArn': sourceArn } });
  it('let a service principal in when the statement names it and the conditions hold', () => {
    expect(authorize(delivery(topic), [], queuePolicy)).toBe('allow');
    expect(authorize(delivery('arn:aws:sns:us-east-1:000000000000:other'), [], queuePolicy)).toBe('implicit-deny');
    expect(authorize({ ...delivery(topic), principal: { kind: 'service', service: 'events.amazonaws.com' } }, [], queuePolicy)).toBe('implicit-deny');
  });
  it('a role needs no resource policy Allow within the account, but a resource policy Deny still applies', () => {
    const send = request({ action: 'sqs:SendMessage', resource: queue });
    expect(authorize(send, [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queue }], queuePolicy)).toBe('allow');
    expect(authorize(send, [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queue }], [{ Effect: 'Deny', Principal: '*', Action: 'sqs:*', Resource: queue }])).toBe('explicit-deny');
  });
});
