import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';

// Bundling is skipped (`aws:cdk:bundling-stacks`): these tests are about the receipt rule and the outputs.
const synth = (context: Record<string, string>) =>
  Template.fromStack(new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Reports', { env: { account: '123456789012', region: 'eu-west-1' } }));

describe('DMARC aggregate reports reaching the stack', () => {
  it('the receipt rule accepts a reports domain of its own beside the inbound domain, and the outputs give its records', () => {
    const template = synth({ inboundDomain: 'reply.example.com', dmarcReportsDomain: 'dmarc.example.com' });
    template.hasResourceProperties('AWS::SES::ReceiptRule', { Rule: Match.objectLike({ Recipients: ['reply.example.com', 'dmarc.example.com'] }) });
    template.hasOutput('DmarcReportsRecord', { Value: '*._report._dmarc.dmarc.example.com TXT "v=DMARC1"' });
    template.hasOutput('DmarcReportsMx', { Value: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['dmarc.example.com MX 10 inbound-smtp.']) ] }) });
  });

  it('without a reports domain of its own, reports arrive on the inbound domain: one recipient, and the record names it', () => {
    const template = synth({ inboundDomain: 'reply.example.com' });
    template.hasResourceProperties('AWS::SES::ReceiptRule', { Rule: Match.objectLike({ Recipients: ['reply.example.com'] }) });
    template.hasOutput('DmarcReportsRecord', { Value: '*._report._dmarc.reply.example.com TXT "v=DMARC1"' });
  });

  it('with receiving off, a reports domain the operator receives elsewhere still gets its record, and nothing receives here', () => {
    const template = synth({ dmarcReportsDomain: 'dmarc.example.com' });
    template.hasOutput('DmarcReportsRecord', { Value: '*._report._dmarc.dmarc.example.com TXT "v=DMARC1"' });
    template.resourceCountIs('AWS::SES::ReceiptRule', 0);
    expect(Object.keys(template.findOutputs('DmarcReportsMx'))).toEqual([]);
  });

  it('with neither, there is no reports address and no record to publish', () => {
    expect(Object.keys(synth({}).findOutputs('DmarcReportsRecord'))).toEqual([]);
  });
});
