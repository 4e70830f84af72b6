import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { schedules as sharedSchedules, type ScheduleDefinition, type ScheduleName } from '../shared/platform/core/routes';
import { connect, scheduledAccess, type FunctionAccess, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';
import { pascal } from './queues';

/** Run time allowed to one scheduled job. */
export const SCHEDULED_JOB_TIMEOUT = Duration.seconds(60);

/**
 * EventBridge Scheduler's rate expression for a period in seconds, rounded up to whole minutes
 * (its smallest rate is one minute).
 */
export function rateExpression(everySeconds: number): string {
  if (!Number.isFinite(everySeconds) || everySeconds <= 0) throw new Error(`Invalid schedule period: ${everySeconds}s`);
  const minutes = Math.max(1, Math.ceil(everySeconds / 60));
  return `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`;
}

/** A job and what its function may touch. */
export interface ScheduledJob extends ScheduleDefinition {
  readonly access: FunctionAccess;
}

/** The route table's jobs with their access; the access table is typed over every job, so none goes without. */
export function routeTableJobs(): Readonly<Record<ScheduleName, ScheduledJob>> {
  const jobs = {} as Record<ScheduleName, ScheduledJob>;
  for (const name of Object.keys(sharedSchedules) as ScheduleName[]) jobs[name] = { ...sharedSchedules[name], access: scheduledAccess[name] };
  return jobs;
}

export interface SchedulingProps {
  /** The shared resources the job functions are connected to. */
  readonly resources: ServiceResources;
  /**
   * Other jobs than the route table's, keyed by name, each with what it may touch.
   * @default the `schedules` of shared/platform/core/routes.ts, each with its entry in scheduledAccess (lib/access.ts)
   */
  readonly jobs?: Readonly<Record<string, ScheduledJob>>;
  /**
   * What happens to the log groups when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** One function and one EventBridge Scheduler schedule per scheduled job; nothing when there are none. */
export class Scheduling extends Construct {
  /** One function per job, keyed by job name. */
  public readonly functions: Readonly<Record<string, ProjectFunction>>;
  /** One schedule per job, keyed by job name. */
  public readonly schedules: Readonly<Record<string, scheduler.CfnSchedule>>;
  /** The role EventBridge Scheduler assumes to invoke the jobs; undefined when there are none. */
  public readonly role?: iam.Role;

  constructor(scope: Construct, id: string, props: SchedulingProps) {
    super(scope, id);
    const jobs: [string, ScheduledJob][] = Object.entries(props.jobs ?? routeTableJobs());
    const functions: Record<string, ProjectFunction> = {};
    const schedules: Record<string, scheduler.CfnSchedule> = {};
    this.functions = functions;
    this.schedules = schedules;
    if (jobs.length === 0) return;

    const account = Stack.of(this).account;
    const role = new iam.Role(this, 'SchedulerRole', {
      // Only schedules of this account may use the role (confused-deputy guard).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
      description: 'Lets EventBridge Scheduler invoke the scheduled jobs',
    });
    this.role = role;

    for (const [name, def] of jobs) {
      const fn = new ProjectFunction(this, pascal(name), {
        entry: def.entry,
        description: `Scheduled job ${name}`,
        timeout: SCHEDULED_JOB_TIMEOUT,
        logRemovalPolicy: props.logRemovalPolicy,
      });
      connect(fn.function, props.resources, def.access);
      fn.function.grantInvoke(role);
      functions[name] = fn;

      schedules[name] = new scheduler.CfnSchedule(this, `${pascal(name)}Schedule`, {
        description: `Runs ${name}`,
        scheduleExpression: rateExpression(def.everySeconds),
        flexibleTimeWindow: { mode: 'OFF' },
        state: 'ENABLED',
        target: {
          arn: fn.function.functionArn,
          roleArn: role.roleArn,
          // A run that cannot start within one period is superseded by the next one: do not pile up.
          retryPolicy: {
            maximumRetryAttempts: 2,
            maximumEventAgeInSeconds: Math.min(86_400, Math.max(60, def.everySeconds)),
          },
        },
      });
    }

    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'CDK\'s grantInvoke also allows the versions and aliases (`:*`) of the job functions of this stack.',
          appliesTo: [{ regex: '/^Resource::<.*\\.Arn>:\\*$/' }],
        },
      ],
      true,
    );
  }
}
