import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface CampaignTimersProps {
  /** The queue the one-time schedules put the engine's messages on. */
  readonly campaignsQueue: sqs.IQueue;
}

/**
 * The role EventBridge Scheduler assumes for the campaign engine's one-time schedules (a start at
 * `scheduledFor`, the next batch of `batchMode`): it may send to the campaigns queue and nothing else.
 */
export class CampaignTimers extends Construct {
  /** Passed by the engine in each CreateSchedule (CAMPAIGN_TIMER_ROLE_ARN). */
  public readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: CampaignTimersProps) {
    super(scope, id);
    this.role = new iam.Role(this, 'Role', {
      // Only schedules of this account may use the role (confused-deputy guard).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } } }),
      description: 'Lets EventBridge Scheduler put the campaign engine\'s timed messages on the campaigns queue',
    });
    props.campaignsQueue.grantSendMessages(this.role);
  }
}
