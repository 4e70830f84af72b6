import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { accessByFunction } from '../../lib/access';
import { EmailApiStack } from '../../lib/email-api-stack';

// Bundling is skipped (`aws:cdk:bundling-stacks`): these tests are about the functions' environment.
const stackOf = (props: ConstructorParameters<typeof EmailApiStack>[2] = {}, context: Record<string, unknown> = {}) =>
  new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Pacing', { env: { account: '123456789012', region: 'eu-west-1' }, ...props });

/** PROVIDER_RATES of every function that has it in its environment. */
function values(template: Template): unknown[] {
  return Object.values(template.findResources('AWS::Lambda::Function'))
    .map((f) => f.Properties.Environment?.Variables?.PROVIDER_RATES)
    .filter((v) => v !== undefined);
}

describe('the campaign limits per mailbox provider (PROVIDER_RATES)', () => {
  it('reach the campaign engine only, as the prop gives them', () => {
    const readers = Object.entries(accessByFunction()).filter(([, a]) => a.settings?.includes('PROVIDER_RATES')).map(([name]) => name);
    expect(readers).toEqual(['campaign-engine']);
    expect(values(Template.fromStack(stackOf({ providerRates: { yahoo: 1000, other: null } })))).toEqual(['{"yahoo":1000,"other":null}']);
  });

  it('take the `providerRates` context as JSON when the prop is absent', () => {
    expect(values(Template.fromStack(stackOf({}, { providerRates: '{"google":3000}' })))).toEqual(['{"google":3000}']);
  });

  it('are absent when unset: the engine uses the documented defaults', () => {
    expect(values(Template.fromStack(stackOf()))).toEqual([]);
  });

  it.each([
    ['{"hotmail":100}', /providerRates: unknown provider "hotmail"/],
    ['{"google":0}', /providerRates: the rate of google must be a whole number/],
    ['not json', /providerRates: must be a JSON object/],
  ])('fail the synth on %p, naming the setting', (value, message) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], providerRates: value } });
    expect(() => new EmailApiStack(app, 'Bad')).toThrow(message);
  });
});
