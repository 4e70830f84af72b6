// Quiet test output: the structured logs are for CloudWatch, and Lambda runs Node 22 anyway.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// CDK's built-in CloudFormation validation (a WASM engine run at every synth) only writes a report
// here: without @aws-cdk/core:validateAgainstDefaultRules its findings are warnings and never fail a
// synth, so no test can fail by it, while starting its engine cost each infra file 5-10 s. The deploy
// rehearsal lints the templates with cfn-lint. CDK_VALIDATION=true turns it back on.
process.env.CDK_VALIDATION ??= 'false';
