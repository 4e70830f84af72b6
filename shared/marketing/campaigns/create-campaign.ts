import { randomBytes, randomUUID } from 'node:crypto';
import { getSegment } from '../../audience/leads/segment-repository';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { findSenderById, senderPermission } from '../../identities/domains/sender-lookup';
import { AppError, badRequest, notFound, unprocessable } from '../../platform/core/errors';
import { logger } from '../../platform/core/logger';
import { refuseDisabledProject } from '../../platform/projects/project-active';
import { slugify } from '../../platform/projects/project';
import { campaignIdsObjectKey } from '../../platform/store/keys';
import type { Template } from '../../mail-pipeline/templates/template';
import { findTemplate } from '../../mail-pipeline/templates/template-service';
import type { Campaign, CampaignAudience } from './campaign';
import { campaignsCreatedSince, getCampaign, moveCampaignStatus, putNewCampaign, releaseCampaignTemplate } from './campaign-gateway';
import { startInstant, type CampaignRequest } from './campaign-request';
import { comparable, DUPLICATE_SCAN_CAP, duplicateCampaignError, findDuplicate, NAME_TEMPLATE_WINDOW_MS } from './duplicate-campaign';
import { enqueueCampaignMessage } from './engine-messages';

/**
 * `POST /v1/campaigns` (4.8): checks what the request names (template, sender, audience), refuses a
 * duplicate unless confirmed, stores `recipientIds`, writes the campaign in `initializing` with its
 * template usage (one transaction) and queues the engine's `init`. The campaign as written.
 */
export async function createCampaign(deps: Needs<'db' | 'queue' | 'blobs' | 'clock'>, caller: ProjectCaller, request: CampaignRequest): Promise<Campaign> {
  refuseDisabledProject(caller.project);
  const projectId = caller.project.id;
  const now = deps.clock.now();
  const scheduledFor = startInstant(request.start, now);
  // Read in parallel, but the first fault in this order is the answer, whichever read ends first.
  const [template, , audience] = await firstFaultInOrder([requireTemplate(deps, projectId, request.template), requireSendingProfile(deps, projectId, request.senderProfileId), resolveAudience(deps, projectId, request)] as const);
  const subject = request.subject ?? template.subject ?? undefined;
  if (!subject) throw badRequest('subject is required: the template has no subject');

  const id = randomUUID();
  const created = now.toISOString();
  const campaign: Campaign = {
    id,
    project_id: projectId,
    mode: caller.mode,
    name: request.name,
    subject,
    ...(request.previewText !== undefined ? { preview_text: request.previewText } : {}),
    template_id: template.id,
    sender_profile_id: request.senderProfileId,
    status: 'initializing',
    audience,
    frozen_at: created,
    // Counted by the engine's init for every source but a list of ids, which is its own count.
    total_recipients: audience.kind === 'ids' ? audience.count : 0,
    ...(request.recipientCount !== undefined ? { recipient_count_expected: request.recipientCount } : {}),
    select_all_recipients: request.selectAllRecipients,
    batch_mode: request.batchMode,
    ...(request.batchSize !== undefined ? { batch_size: request.batchSize } : {}),
    batch_interval_hours: request.batchIntervalHours,
    ...(request.sendOverHours !== undefined ? { send_over_hours: request.sendOverHours } : {}),
    ...(request.variableConfig !== undefined ? { variable_config: request.variableConfig } : {}),
    utm_campaign: utmCampaign(request.name),
    schedule_type: request.start.kind === 'delay' ? 'delay' : 'scheduled',
    created_at: created,
    updated_at: created,
    ...(scheduledFor ? { scheduled_for: scheduledFor.toISOString() } : {}),
    step: 0,
    released: 0,
    name_lc: comparable(request.name),
    subject_lc: comparable(subject),
  };

  if (!request.confirmDuplicate) {
    const recent = await campaignsCreatedSince(deps.db, projectId, new Date(now.getTime() - NAME_TEMPLATE_WINDOW_MS).toISOString(), DUPLICATE_SCAN_CAP);
    const duplicate = findDuplicate(campaign, recent, now);
    if (duplicate) throw duplicateCampaignError(duplicate);
  }

  // The ids first: the engine never sees a campaign whose ids are not stored yet.
  if (request.audience.kind === 'ids') await deps.blobs.put(campaignIdsObjectKey(projectId, id), Buffer.from(JSON.stringify(request.audience.ids)));
  if ((await putNewCampaign(deps.db, campaign)) === 'template_missing') throw templateNotFound(request.template);

  try {
    await enqueueCampaignMessage(deps, { v: 1, kind: 'init', campaign_id: id, project_id: projectId });
  } catch (error) {
    logger.error('Campaign init could not be queued; the campaign is marked failed', { campaign_id: id, error: String(error) });
    await moveCampaignStatus(deps.db, id, { from: ['initializing'], to: 'failed', now: deps.clock.now().toISOString() });
    await releaseCampaignTemplate(deps.db, campaign);
    throw new AppError(500, 'Failed to create campaign', 'CREATE_FAILED', {}, { cause: error });
  }
  return campaign;
}

/** Awaits every promise; throws the first rejection in the given order, so the answer does not depend on timing. */
async function firstFaultInOrder<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** `utm_campaign`: a slug of the name and a short random id, so two campaigns of one name stay apart in analytics. */
export function utmCampaign(name: string): string {
  return slugify(/[a-z0-9]/i.test(name.normalize('NFKD')) ? name : 'campaign', randomBytes(3).toString('hex'));
}

function templateNotFound(ref: CampaignRequest['template']): AppError {
  return notFound(`Template not found with ID ${ref.kind === 'uuid' ? ref.id : ref.internalId}`);
}

/** The template the request names, in the caller's project: 404 `Template not found with ID ...` as template sends answer. */
async function requireTemplate(deps: Needs<'db'>, projectId: string, ref: CampaignRequest['template']): Promise<Template> {
  const template = await findTemplate(deps.db, projectId, ref.kind === 'uuid' ? ref.id : String(ref.internalId));
  if (!template) throw templateNotFound(ref);
  return template;
}

/** The sender profile must be the project's own (404 otherwise) and able to send now (422 `SENDER_NOT_VERIFIED`). */
async function requireSendingProfile(deps: Needs<'db'>, projectId: string, senderProfileId: string): Promise<void> {
  const sender = await findSenderById(deps, projectId, senderProfileId);
  if (!sender) throw notFound(`Sender profile not found with ID ${senderProfileId}`);
  if ((await senderPermission(deps, projectId, sender.from_email)) === 'none') {
    throw unprocessable(`Sender profile ${senderProfileId} (${sender.from_email}) cannot send yet: its domain is not verified and its address is not confirmed`, 'SENDER_NOT_VERIFIED', {
      code: 'SENDER_NOT_VERIFIED',
    });
  }
}

/** The stored audience: a segment must be the project's (a dynamic one evaluated at least once), a follow-up's campaign too. */
async function resolveAudience(deps: Needs<'db'>, projectId: string, request: CampaignRequest): Promise<CampaignAudience> {
  const source = request.audience;
  switch (source.kind) {
    case 'ids':
      return { kind: 'ids', count: source.ids.length };
    case 'all':
      return source.filter ? { kind: 'filter', filter: source.filter } : { kind: 'all' };
    case 'segment': {
      const segment = await getSegment(deps.db, projectId, source.segmentId);
      if (!segment) throw notFound(`Segment not found with ID ${source.segmentId}`);
      if (segment.type === 'static') return { kind: 'segment', segment_id: segment.id, dynamic: false };
      const generation = segment.current_generation ?? 0;
      if (generation < 1) {
        throw unprocessable(`Dynamic segment ${segment.id} has no finished evaluation yet; evaluate it first`, 'SEGMENT_NOT_EVALUATED', { code: 'SEGMENT_NOT_EVALUATED' });
      }
      // The members of the generation current now: a later evaluation does not change the audience.
      return { kind: 'segment', segment_id: segment.id, dynamic: true, generation };
    }
    case 'follow_up': {
      const earlier = await getCampaign(deps.db, source.campaignId);
      if (!earlier || earlier.project_id !== projectId) throw notFound(`Campaign not found with ID ${source.campaignId}`);
      return { kind: 'follow_up', campaign_id: earlier.id, audience: source.audience };
    }
  }
}
