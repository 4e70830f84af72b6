import type { ServiceEvent } from '../core/events';
import type { Project } from './project';

/** A project's two webhook slots: live-key traffic goes to `live`, test-key traffic to `dev`. */
export type WebhookSlot = 'live' | 'dev';

export interface WebhookTarget {
  url: string;
  slot: WebhookSlot;
}

/**
 * Where an event goes (part 6, routing rules 1 to 4, with part 5's key modes):
 * - `inbound_webhook_url` / `inbound_webhook_url_dev`, when set, replace `webhook_url` /
 *   `webhook_url_dev` for every event (rule 2).
 * - A send with an `environment` goes to that environment's URL only (rule 3).
 * - Email events of live sends go to the live slot; of test sends to the dev slot only, with no
 *   fallback to the live URL (part 5). Rule 1's "every configured URL" contradicts that for test
 *   traffic; we chose the slots, so a live integration never sees test mail.
 * - Project events without a mode (domain.*, sender.*, suppression.*) go to both slots (rule 1).
 * - `email.inbound` goes to one URL, the first set in rule 4's order.
 */
export function webhookTargets(project: Project, event: ServiceEvent): WebhookTarget[] {
  const live = project.inbound_webhook_url || project.webhook_url || undefined;
  const dev = project.inbound_webhook_url_dev || project.webhook_url_dev || undefined;

  if (event.event === 'email.inbound') {
    const order: [string | null | undefined, WebhookSlot][] = event.is_test
      ? [
          [project.inbound_webhook_url_dev, 'dev'],
          [project.webhook_url_dev, 'dev'],
          [project.inbound_webhook_url, 'live'],
          [project.webhook_url, 'live'],
        ]
      : [
          [project.inbound_webhook_url, 'live'],
          [project.webhook_url, 'live'],
          [project.inbound_webhook_url_dev, 'dev'],
          [project.webhook_url_dev, 'dev'],
        ];
    const first = order.find(([url]) => Boolean(url));
    return first ? [{ url: first[0] as string, slot: first[1] }] : [];
  }
  if (event.environment) {
    const url = project.inbound_webhook_environments?.[event.environment];
    return url ? [{ url, slot: event.is_test ? 'dev' : 'live' }] : [];
  }
  if (event.is_test === true) return dev ? [{ url: dev, slot: 'dev' }] : [];
  if (event.is_test === false) return live ? [{ url: live, slot: 'live' }] : [];
  const targets: WebhookTarget[] = [];
  if (live) targets.push({ url: live, slot: 'live' });
  if (dev && dev !== live) targets.push({ url: dev, slot: 'dev' });
  return targets;
}
