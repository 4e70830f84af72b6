import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DEFAULT_INBOUND_DOMAIN, DMARC_WITHOUT_RECEIVING_WARNING, EmailApiStack, RECEIVING_OFF_WARNING } from '../../lib/email-api-stack';
import { nagErrors } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about which resources exist.
function synth(context: Record<string, string> = {}, region = 'eu-west-1'): { stack: EmailApiStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new EmailApiStack(app, 'Receiving', { env: { account: '123456789012', region } });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  return { stack, template: Template.fromStack(stack) };
}

const RECEIVING_TYPES = ['AWS::SES::ReceiptRuleSet', 'AWS::SES::ReceiptRule', 'Custom::DeactivateReceiptRuleSet'];
const warnings = (stack: EmailApiStack) => Annotations.fromStack(stack).findWarning('*', Match.anyValue()).map((w) => String(w.entry.data));

/** INBOUND_DOMAIN of every function that has it. */
const inboundDomains = (template: Template) =>
  new Set(Object.values(template.findResources('AWS::Lambda::Function')).map((f) => f.Properties.Environment?.Variables?.INBOUND_DOMAIN).filter(Boolean));

/** RECEIVING by function logical id, for every function given it. */
const receivingOf = (template: Template) =>
  Object.fromEntries(
    Object.entries(template.findResources('AWS::Lambda::Function'))
      .map(([id, f]) => [id, f.Properties.Environment?.Variables?.RECEIVING])
      .filter(([, v]) => v !== undefined),
  );
/** Logical ids of the functions that build mail or DNS records (they read INBOUND_DOMAIN, and RECEIVING with it). */
const inboundReaders = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function'))
    .filter(([, f]) => f.Properties.Environment?.Variables?.INBOUND_DOMAIN !== undefined)
    .map(([id]) => id)
    .sort();

describe('the functions know whether the deployment receives mail (RECEIVING, from the same inboundDomain)', () => {
  it('is `off` in every function that builds mail or DNS records when there is no inbound domain', () => {
    const { template } = synth({}, 'eu-central-2');
    const receiving = receivingOf(template);
    expect(Object.keys(receiving).sort()).toEqual(inboundReaders(template));
    expect(Object.keys(receiving).length).toBeGreaterThanOrEqual(10);
    expect(new Set(Object.values(receiving))).toEqual(new Set(['off']));
  });

  it.each([
    ['the context', { inboundDomain: 'reply.example.org' }, undefined],
    ['the prop', {}, 'reply.example.org'],
  ])('is `on` in every one of them, the inbound function included, with an inbound domain from %s', (_from, context, inboundDomain) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
    const stack = new EmailApiStack(app, 'ReceivingOn', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain });
    const template = Template.fromStack(stack);
    const receiving = receivingOf(template);
    expect(Object.keys(receiving).sort()).toEqual(inboundReaders(template));
    expect(new Set(Object.values(receiving))).toEqual(new Set(['on']));
    expect(Object.keys(receiving)).toContain(stack.getLogicalId(stack.inbound!.function.function.node.defaultChild as CfnFunction));
  });
});

describe('receiving is a choice: off without an inbound domain', () => {
  // eu-central-2 (Zurich) is one of the regions where SES sends but does not receive mail.
  let off: ReturnType<typeof synth>;
  beforeAll(() => {
    off = synth({}, 'eu-central-2');
  });

  it('creates no SES receiving resource, no inbound bucket, function or failure queue', () => {
    for (const type of RECEIVING_TYPES) off.template.resourceCountIs(type, 0);
    expect(off.stack.inbound).toBeUndefined();
    expect(Object.keys(off.template.findOutputs('InboundRuleSetName'))).toEqual([]);
    expect(Object.keys(off.template.findOutputs('InboundBucketName'))).toEqual([]);
    expect(off.stack.monitoring.alarms['dlq:inbound']).toBeUndefined();
    expect(off.stack.monitoring.alarms['errors:inbound']).toBeUndefined();
  });

  it('still deploys the rest: the API, the queues and their workers, with cdk-nag clean', () => {
    expect(Object.keys(off.stack.api.functions).length).toBeGreaterThan(0);
    off.template.resourcePropertiesCountIs('AWS::Lambda::EventSourceMapping', {}, Object.keys(off.stack.workers.functions).length);
    expect(nagErrors(off.stack)).toEqual([]);
  });

  it('says so: a Receiving output of `off` and a synth warning naming what is off and how to turn it on', () => {
    off.template.hasOutput('Receiving', { Value: 'off' });
    expect(warnings(off.stack)).toContain(RECEIVING_OFF_WARNING);
    expect(RECEIVING_OFF_WARNING).toMatch(/-c inboundDomain=/);
  });

  it('warns that DMARC reports have nowhere to go unless a DMARC reports domain is set', () => {
    expect(warnings(off.stack)).toContain(DMARC_WITHOUT_RECEIVING_WARNING);
    const withDmarc = synth({ dmarcReportsDomain: 'dmarc.example.com' }, 'eu-central-2');
    expect(warnings(withDmarc.stack)).toContain(RECEIVING_OFF_WARNING);
    expect(warnings(withDmarc.stack)).not.toContain(DMARC_WITHOUT_RECEIVING_WARNING);
  });

  it(`gives the functions the reserved ${DEFAULT_INBOUND_DOMAIN} as their Reply-To domain`, () => {
    expect(inboundDomains(off.template)).toEqual(new Set([DEFAULT_INBOUND_DOMAIN]));
  });
});

describe('receiving on: -c inboundDomain=<domain>', () => {
  it('creates the rule set for that domain, its deactivation on delete, the inbound function, and no warning', () => {
    const on = synth({ inboundDomain: 'Reply.Example.org' });
    for (const type of RECEIVING_TYPES) on.template.resourceCountIs(type, 1);
    on.template.hasResourceProperties('AWS::SES::ReceiptRule', { Rule: Match.objectLike({ Recipients: ['reply.example.org'] }) });
    on.template.hasOutput('Receiving', { Value: 'on: reply.example.org' });
    expect(inboundDomains(on.template)).toEqual(new Set(['reply.example.org']));
    expect(warnings(on.stack)).not.toContain(RECEIVING_OFF_WARNING);
    expect(warnings(on.stack)).not.toContain(DMARC_WITHOUT_RECEIVING_WARNING);
  });

  it.each(['mailto:reply@example.com', 'example', 'https://reply.example.com'])('fails the synth on %p, naming the setting', (value) => {
    expect(() => synth({ inboundDomain: value })).toThrow(/inboundDomain must be a DNS name/);
  });
});
