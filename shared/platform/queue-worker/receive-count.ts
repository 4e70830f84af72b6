import type { SQSRecord } from 'aws-lambda';
import { queues, type QueueName } from '../core/queues';

/** How many times SQS has handed out this message (1 on the first receive). */
export function receiveCount(record: Pick<SQSRecord, 'attributes'>): number {
  const count = Number(record.attributes?.ApproximateReceiveCount);
  return Number.isInteger(count) && count >= 1 ? count : 1;
}

/** True on the message's last receive before its queue moves it to the dead-letter queue. */
export function isLastReceive(queue: QueueName, record: Pick<SQSRecord, 'attributes'>): boolean {
  return receiveCount(record) >= queues[queue].maxReceiveCount;
}
