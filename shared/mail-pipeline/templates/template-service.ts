import { randomUUID } from 'node:crypto';
import { badRequest, concurrentChange, conflict, notFound } from '../../platform/core/errors';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import type { Clock } from '../../platform/core/ports';
import type { Db } from '../../platform/store/client';
import { checkTemplate } from './render';
import type { Template } from './template';
import { toCreateTemplate, toUpdateTemplate, type CreateTemplateBody, type UpdateTemplateBody } from './template-request';
import {
  allocateTemplateInternalId,
  deleteTemplate as deleteTemplateItems,
  getTemplate,
  getTemplateByInternalId,
  listTemplateUsage,
  pageTemplateEntries,
  putNewTemplate,
  putTemplateVersion,
} from './template-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UPDATE_ATTEMPTS = 5;

/** A parsed `:id`: the uuid or the numeric internal id (part 4.7). */
export type TemplateRef = { kind: 'uuid'; id: string } | { kind: 'internal'; internalId: number };

/** Reads `:id`; neither a uuid nor a positive integer is a 400. */
export function parseTemplateRef(raw: string | undefined): TemplateRef {
  const id = (raw ?? '').trim();
  if (UUID.test(id)) return { kind: 'uuid', id: id.toLowerCase() };
  if (/^\d+$/.test(id) && Number.isSafeInteger(Number(id)) && Number(id) > 0) return { kind: 'internal', internalId: Number(id) };
  throw badRequest(`Invalid template id: ${raw ?? ''}`);
}

/** The template a `:id` names in the project, or undefined (no error). */
export async function findTemplate(db: Db, projectId: string, raw: string | undefined): Promise<Template | undefined> {
  const ref = parseTemplateRef(raw);
  return ref.kind === 'uuid' ? getTemplate(db, projectId, ref.id) : getTemplateByInternalId(db, projectId, ref.internalId);
}

/** The template a `:id` names; 400 for a malformed id, 404 when absent. */
export async function requireTemplate(db: Db, projectId: string, raw: string | undefined): Promise<Template> {
  const template = await findTemplate(db, projectId, raw);
  if (!template) throw notFound(`Template not found with ID ${raw ?? ''}`);
  return template;
}

/** The API form of a template; lists send `html` empty. */
export function presentTemplate(template: Template, options: { withHtml?: boolean } = {}) {
  return {
    id: template.id,
    internal_id: template.internal_id,
    project_id: template.project_id,
    name: template.name,
    subject: template.subject ?? null,
    description: template.description ?? null,
    preheader: template.preheader ?? null,
    html: options.withHtml === false ? '' : template.html,
    version: template.version,
    created_at: template.created_at,
    updated_at: template.updated_at,
  };
}

/**
 * The fields every send renders must compile and render within the bounds, so a stored template can
 * always be sent: 400 `TEMPLATE_INVALID` or 422 `TEMPLATE_LIMIT_EXCEEDED` (see render.ts).
 */
function checkRenderedFields(fields: { html?: string | null; subject?: string | null }): void {
  if (fields.html) checkTemplate(fields.html, 'html');
  if (fields.subject) checkTemplate(fields.subject, 'subject');
}

/** POST /v1/templates: `name` and `html` are required; html and subject must compile. */
export async function createTemplate(db: Db, clock: Clock, projectId: string, body: CreateTemplateBody): Promise<Template> {
  const fields = toCreateTemplate(body);
  checkRenderedFields(fields);
  const internalId = await allocateTemplateInternalId(db, projectId);
  const now = clock.now().toISOString();
  const template: Template = {
    id: randomUUID(),
    project_id: projectId,
    internal_id: internalId,
    ...fields,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await putNewTemplate(db, template);
  return template;
}

/**
 * GET /v1/templates: `search` matches part of the name (any case); most recently updated first;
 * `html` empty. Reads a bounded page (offsets to 1,000, `cursor` beyond) from the list entries.
 */
export async function pageTemplates(
  db: Db,
  projectId: string,
  request: PageRequest & { search?: string; cursor?: string },
): Promise<{ templates: Template[] } & BoundedTotal> {
  const search = request.search?.trim().toLowerCase() || undefined;
  return pageTemplateEntries(db, projectId, request, search, request.cursor);
}

/** PUT /v1/templates/:id: any of name, html, subject, description, preheader; bumps `version`; html and subject must compile. */
export async function updateTemplate(db: Db, clock: Clock, projectId: string, rawId: string | undefined, body: UpdateTemplateBody): Promise<Template> {
  const changes = toUpdateTemplate(body);
  checkRenderedFields(changes);
  for (let attempt = 1; ; attempt++) {
    const current = await requireTemplate(db, projectId, rawId);
    const next: Template = { ...current, ...changes, version: current.version + 1, updated_at: clock.now().toISOString() };
    if (await putTemplateVersion(db, next, current.version)) return next;
    if (attempt >= UPDATE_ATTEMPTS) throw concurrentChange();
  }
}

/** DELETE /v1/templates/:id: refused with 409 TEMPLATE_IN_USE while used, unless `force`. */
export async function removeTemplate(db: Db, projectId: string, rawId: string | undefined, force: boolean): Promise<Template> {
  const template = await requireTemplate(db, projectId, rawId);
  if (!force) await refuseIfUsed(db, projectId, template.id);
  // The delete re-checks the use count in its transaction: a campaign created since the look above wins.
  if (!(await deleteTemplateItems(db, template, force))) {
    await refuseIfUsed(db, projectId, template.id);
    throw conflict('The template changed while it was being deleted; retry', 'CONFLICT');
  }
  return template;
}

/** 409 TEMPLATE_IN_USE listing the template's users, when it has any. */
async function refuseIfUsed(db: Db, projectId: string, templateId: string): Promise<void> {
  const usage = await listTemplateUsage(db, projectId, templateId);
  if (usage.length === 0) return;
  const campaigns = usage.filter((u) => u.kind === 'campaign').map((u) => u.id);
  const automationNodes = usage.filter((u) => u.kind === 'automation').map((u) => u.id);
  throw conflict(
    `Template is in use by ${campaigns.length} campaign(s) and ${automationNodes.length} automation step(s); use force=true to delete it anyway`,
    'TEMPLATE_IN_USE',
    { code: 'TEMPLATE_IN_USE', automation_nodes: automationNodes, campaigns },
  );
}
