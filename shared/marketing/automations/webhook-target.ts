import type { Project } from '../../platform/projects/project';

/**
 * The URL a webhook step posts to. A project's webhooks are its settings, not items of their own,
 * so a step names one by its slot: `live` (`inbound_webhook_url` when set, else `webhook_url`, as
 * events go), `dev` (the same for the dev slot), or the key of an `inbound_webhook_environments`
 * entry. Undefined when the project has no URL there: the step's webhook does not exist.
 */
export function webhookUrlOf(project: Pick<Project, 'webhook_url' | 'webhook_url_dev' | 'inbound_webhook_url' | 'inbound_webhook_url_dev' | 'inbound_webhook_environments'>, webhookId: string): string | undefined {
  if (webhookId === 'live') return project.inbound_webhook_url || project.webhook_url || undefined;
  if (webhookId === 'dev') return project.inbound_webhook_url_dev || project.webhook_url_dev || undefined;
  const environments = project.inbound_webhook_environments ?? {};
  return Object.prototype.hasOwnProperty.call(environments, webhookId) ? environments[webhookId] || undefined : undefined;
}
