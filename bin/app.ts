import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EmailApiStack } from '../lib/email-api-stack';

const app = new App();

new EmailApiStack(app, 'Mailroom', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'Mailroom: self-hostable email API on Amazon SES',
});

// `cdk synth -c nag=true` runs the AWS Solutions rules; unsuppressed errors fail the synth.
if (app.node.tryGetContext('nag') === 'true' || app.node.tryGetContext('nag') === true) {
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
}
