import { ConflictException, CreateScheduleCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import type { QueueName } from '../core/queues';
import type { Timers } from '../core/ports';

/** Scheduler's `at(...)` takes a local date-time without zone or fraction; with `ScheduleExpressionTimezone: UTC`. */
export function atExpression(at: Date): string {
  return `at(${at.toISOString().slice(0, 19)})`;
}

/** Schedule names allow 1 to 64 of `[0-9a-zA-Z-_.]`. */
function scheduleName(name: string): string {
  return name.replace(/[^0-9a-zA-Z_.-]/g, '-').slice(0, 64);
}

/**
 * Timers over EventBridge Scheduler one-time schedules: `at(...)` in UTC, deleted by the scheduler
 * once fired (`ActionAfterCompletion: DELETE`), whose target is the queue with the message as input.
 * A name already taken is the same timer set again (a replayed step): not an error.
 */
export class SchedulerTimers implements Timers {
  constructor(
    private readonly client: SchedulerClient,
    private readonly target: (queue: QueueName) => { queueArn: string; roleArn: string },
  ) {}

  async fireAt(name: string, at: Date, queue: QueueName, body: unknown): Promise<void> {
    const { queueArn, roleArn } = this.target(queue);
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: scheduleName(name),
          ScheduleExpression: atExpression(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: queueArn, RoleArn: roleArn, Input: JSON.stringify(body) },
        }),
      );
    } catch (error) {
      if (error instanceof ConflictException) return;
      throw error;
    }
  }
}
