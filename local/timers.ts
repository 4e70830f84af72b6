import type { ScheduleDefinition } from '../shared/platform/core/routes';
import { runAs } from './iam/enforce';
import { lambdaContext } from './lambda-context';
import type { Context } from 'aws-lambda';

type ScheduledLambda = (event: unknown, context: Context) => Promise<unknown>;

/** The local EventBridge Scheduler: runs each scheduled handler every `everySeconds`, never overlapping itself. */
export function startTimers(
  jobs: { name: string; schedule: ScheduleDefinition; handler: ScheduledLambda }[],
  onError: (e: unknown) => void = console.error,
) {
  const timers = jobs.map((job) => {
    let busy: Promise<unknown> | undefined;
    const tick = () => {
      if (busy) return;
      const event = { source: 'local.scheduler', 'detail-type': 'Scheduled Event', time: new Date().toISOString(), detail: { schedule: job.name } };
      busy = runAs(job.name, () => job.handler(event, lambdaContext(`local-${job.name}`)))
        .catch(onError)
        .finally(() => (busy = undefined));
    };
    return { handle: setInterval(tick, job.schedule.everySeconds * 1000), inFlight: () => busy };
  });
  return {
    /** Whether a scheduled job is running. */
    busy: () => timers.some((t) => t.inFlight() !== undefined),
    /** Stops the timers and waits for runs in flight. */
    stop: async () => {
      timers.forEach((t) => clearInterval(t.handle));
      await Promise.all(timers.map((t) => t.inFlight()));
    },
  };
}
