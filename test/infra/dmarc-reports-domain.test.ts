import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { accessByFunction, scheduledAccess } from '../../lib/access';
import { EmailApiStack } from '../../lib/email-api-stack';

// Bundling is skipped (`aws:cdk:bundling-stacks`): these tests are about the functions' environment.
const stackOf = (props: ConstructorParameters<typeof EmailApiStack>[2] = {}, context: Record<string, unknown> = {}) =>
  new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Dmarc', {
    env: { account: '123456789012', region: 'eu-west-1' },
    ...props,
  });

/** The functions whose code builds DNS records or receives the reports (lib/access.ts gives them the setting); the inbound function exists only with receiving on. */
const withSetting = [...Object.entries(accessByFunction()), ...Object.entries(scheduledAccess)].filter(([, a]) => a.settings?.includes('DMARC_REPORTS_DOMAIN'));
const readers = withSetting.filter(([name]) => name !== 'inbound').length;

/** DMARC_REPORTS_DOMAIN of every function that has it in its environment. */
function values(template: Template): unknown[] {
  return Object.values(template.findResources('AWS::Lambda::Function'))
    .map((f) => f.Properties.Environment?.Variables?.DMARC_REPORTS_DOMAIN)
    .filter((v) => v !== undefined);
}

describe('the DMARC reports domain (DMARC_REPORTS_DOMAIN)', () => {
  it('reaches the domain functions (register, recreate, partner provisioning, re-check) as the prop gives it', () => {
    expect(readers).toBeGreaterThanOrEqual(4);
    for (const name of ['domains', 'partner', 'pages'] as const) expect(accessByFunction()[name].settings).toContain('DMARC_REPORTS_DOMAIN');
    expect(values(Template.fromStack(stackOf({ dmarcReportsDomain: 'dmarc.example.com' })))).toEqual(Array(readers).fill('dmarc.example.com'));
  });

  it('reaches the inbound function too when receiving is on: it tells report mails from replies by that domain', () => {
    expect(withSetting.map(([name]) => name)).toContain('inbound');
    const template = Template.fromStack(stackOf({ dmarcReportsDomain: 'dmarc.example.com', inboundDomain: 'reply.example.com' }));
    expect(values(template)).toEqual(Array(readers + 1).fill('dmarc.example.com'));
  });

  it('takes the `dmarcReportsDomain` context (`cdk deploy -c dmarcReportsDomain=...`) when the prop is absent, lowercased', () => {
    expect(values(Template.fromStack(stackOf({}, { dmarcReportsDomain: 'Reports.Example.org.' })))).toEqual(Array(readers).fill('reports.example.org'));
  });

  it('is absent when unset: the code then uses the inbound domain (shared/identities/domains/dns-records.ts)', () => {
    expect(values(Template.fromStack(stackOf()))).toEqual([]);
  });

  it.each(['mailto:dmarc@example.com', 'example', 'https://example.com', 42])('fails the synth on %p, naming the setting', (value) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], dmarcReportsDomain: value } });
    expect(() => new EmailApiStack(app, 'Bad')).toThrow(/dmarcReportsDomain must be a DNS name/);
  });
});
