import type { Project } from '../../platform/projects/project';

/** A project as part 2 shows it (the key hashes never leave the service). */
export function presentProject(project: Project) {
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    timezone: project.timezone ?? null,
    default_timezone: project.timezone ?? 'UTC',
    country: project.country ?? null,
    webhook_url: project.webhook_url ?? null,
    webhook_url_dev: project.webhook_url_dev ?? null,
    inbound_webhook_url: project.inbound_webhook_url ?? null,
    inbound_webhook_url_dev: project.inbound_webhook_url_dev ?? null,
    inbound_webhook_environments: project.inbound_webhook_environments ?? {},
    disabled_at: project.disabled_at ?? null,
    created_at: project.created_at,
  };
}

/** A project in a list. */
export function presentProjectSummary(project: Project) {
  return { id: project.id, name: project.name, slug: project.slug, created_at: project.created_at, disabled_at: project.disabled_at ?? null };
}
