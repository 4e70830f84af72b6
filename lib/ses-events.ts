import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * The event types the configuration set publishes by default. Send is left out (the worker records
 * it, and the Delivery that follows covers a crash in between), and so are Open and Click (the
 * service tracks those itself); every published event costs an SNS publish, a queue message and a
 * function run.
 */
export const DEFAULT_SES_EVENT_TYPES: readonly ses.EmailSendingEvent[] = [
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.RENDERING_FAILURE,
  ses.EmailSendingEvent.DELIVERY_DELAY,
  ses.EmailSendingEvent.SUBSCRIPTION,
];

export interface SesEventsProps {
  /** The configuration set whose events are published. */
  readonly configurationSet: ses.IConfigurationSet;
  /** The queue the ingestion worker reads. */
  readonly queue: sqs.IQueue;
  /**
   * Event types to publish.
   * @default DEFAULT_SES_EVENT_TYPES
   */
  readonly eventTypes?: readonly ses.EmailSendingEvent[];
}

/**
 * SES events into the service: configuration set -> SNS topic -> SQS queue (raw delivery) -> the
 * ses-events worker. SNS rather than SES's EventBridge destination (default bus -> rule -> SQS):
 * an SNS publish costs $0.50 per million and its delivery to SQS nothing, while SES sending events
 * on the default bus are opt-in data events at $1.00 per million (rules and same-account delivery
 * free); both wirings put one message on the queue. Compared in docs/cost.md; the event parser
 * reads the EventBridge envelope too, so switching is this construct's change alone.
 */
export class SesEvents extends Construct {
  public readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: SesEventsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'SES sending events', enforceSSL: true });
    this.topic.addSubscription(new subscriptions.SqsSubscription(props.queue, { rawMessageDelivery: true }));
    new ses.ConfigurationSetEventDestination(this, 'Destination', {
      configurationSet: props.configurationSet,
      destination: ses.EventDestination.snsTopic(this.topic),
      events: [...(props.eventTypes ?? DEFAULT_SES_EVENT_TYPES)],
    });
    NagSuppressions.addResourceSuppressions(this.topic, [
      {
        id: 'AwsSolutions-SNS2',
        reason:
          'A KMS key on the topic would bill a KMS request per event (about 3% of the SES price per mail); the events carry mail headers only, travel over TLS (enforceSSL) and land in an SQS queue with server-side encryption.',
      },
    ]);
  }
}
