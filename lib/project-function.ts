import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { type ICommandHooks, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { functionBundling } from './bundling';

/** Memory of every function that does not set its own (docs/cost.md: chosen by cost per mail). */
export const DEFAULT_MEMORY_MB = 256;

/** Repository root: route table entries are relative to it. */
export const REPO_ROOT = path.join(__dirname, '..');

export interface ProjectFunctionProps {
  /** Handler file relative to the repository root, as written in the route table. */
  readonly entry: string;
  /**
   * Exported handler name.
   * @default 'handler'
   */
  readonly handler?: string;
  /**
   * Shown in the console.
   * @default - no description
   */
  readonly description?: string;
  /**
   * Memory in MB (CPU grows with it).
   * @default DEFAULT_MEMORY_MB
   */
  readonly memorySize?: number;
  /**
   * Maximum run time of one invocation.
   * @default Duration.seconds(10)
   */
  readonly timeout?: Duration;
  /**
   * Extra environment variables (NODE_OPTIONS is always set).
   * @default - none
   */
  readonly environment?: Record<string, string>;
  /**
   * How long the function's logs are kept.
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * What happens to the log group when the stack deletes it.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
  /**
   * Files (relative to the repository root) copied next to the bundle, for the code to read at run time.
   * @default - none
   */
  readonly assets?: readonly string[];
}

/** Bundling hooks that copy `assets` (relative to the repository root) into the bundle's folder. */
export function copyAssets(assets: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => assets.map((asset) => `cp "${path.posix.join(inputDir, asset)}" "${outputDir}/"`),
  };
}

/** A NodejsFunction with the project's fixed runtime, architecture, bundling, tracing and log group. */
export class ProjectFunction extends Construct {
  /** The Lambda function. */
  public readonly function: NodejsFunction;
  /** The function's log group, created here so that its retention is ours to set. */
  public readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, props.entry),
      handler: props.handler ?? 'handler',
      description: props.description,
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: lambda.Tracing.ACTIVE,
      logGroup: this.logGroup,
      environment: {
        ...props.environment,
        // Stack traces point at the TypeScript sources instead of the minified bundle.
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        minify: functionBundling.minify,
        sourceMap: functionBundling.sourceMap,
        sourcesContent: functionBundling.sourcesContent,
        target: functionBundling.target,
        format: functionBundling.format === 'cjs' ? OutputFormat.CJS : OutputFormat.ESM,
        externalModules: [...functionBundling.externalModules],
        ...(props.assets?.length ? { commandHooks: copyAssets(props.assets) } : {}),
      },
    });

    NagSuppressions.addResourceSuppressions(
      this.function,
      [
        {
          id: 'AwsSolutions-L1',
          reason:
            'Node.js 22 is the runtime the project targets and tests (bundles are built for node22); moving to a ' +
            'newer runtime is a deliberate upgrade, not a drift to follow automatically.',
        },
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'AWSLambdaBasicExecutionRole is AWS\'s minimal policy for writing the function\'s own logs (CloudWatch Logs only).',
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
  }
}
