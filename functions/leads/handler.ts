import {
  addLeadToSegments,
  addTags,
  deleteLead,
  leadAttributes,
  leadTags,
  listLeads,
  mergeAttributes,
  removeLeadFromSegment,
  removeTags,
  showLead,
  updateLead,
  upsertFromRequest,
} from '../../shared/audience/lead-service';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { paginationBlock, parsePageRequest } from '../../shared/http/pagination';

/** Endpoint group `leads`: leads, their segments, tags and attributes (part 4.9). */
export const handler = apiHandler('leads', {
  'POST /v1/leads': async (request) => {
    const { db, clock } = services();
    return { status: 201, body: await upsertFromRequest(db, clock, projectCaller(request).project.id, request.body) };
  },

  'GET /v1/leads': async (request) => {
    const page = parsePageRequest(request.query);
    const query = { search: request.query.search, segment_id: request.query.segment_id, cursor: request.query.cursor };
    const { leads, total, nextCursor } = await listLeads(services().db, projectCaller(request).project.id, page, query);
    // A search names where its next page starts (next_cursor, null at the end); other lists page by number only.
    const pagination = { ...paginationBlock(page, total), ...(nextCursor !== undefined ? { next_cursor: nextCursor } : {}) };
    return { status: 200, body: { success: true, data: leads, pagination } };
  },

  'GET /v1/leads/{id}': async (request) => {
    const lead = await showLead(services().db, projectCaller(request).project.id, request.params.id);
    return { status: 200, body: { success: true, lead } };
  },

  'PUT /v1/leads/{id}': async (request) => {
    const { db, clock } = services();
    const lead = await updateLead(db, clock, projectCaller(request).project.id, request.params.id, request.body);
    return { status: 200, body: { success: true, lead } };
  },

  'DELETE /v1/leads/{id}': async (request) => {
    await deleteLead(services().db, projectCaller(request).project.id, request.params.id);
    return { status: 200, body: { success: true } };
  },

  'POST /v1/leads/{id}/segments': async (request) => {
    const added = await addLeadToSegments(services().db, projectCaller(request).project.id, request.params.id, request.body);
    return { status: 200, body: { success: true, added } };
  },

  'DELETE /v1/leads/{id}/segments/{segmentId}': async (request) => {
    await removeLeadFromSegment(services().db, projectCaller(request).project.id, request.params.id, request.params.segmentId);
    return { status: 200, body: { success: true } };
  },

  'POST /v1/leads/{id}/tags': async (request) => {
    const { db, clock } = services();
    return { status: 200, body: { success: true, tags: await addTags(db, clock, projectCaller(request).project.id, request.params.id, request.body) } };
  },

  'DELETE /v1/leads/{id}/tags': async (request) => {
    const { db, clock } = services();
    return { status: 200, body: { success: true, tags: await removeTags(db, clock, projectCaller(request).project.id, request.params.id, request.body) } };
  },

  'GET /v1/leads/{id}/tags': async (request) => ({ status: 200, body: { success: true, tags: await leadTags(services().db, projectCaller(request).project.id, request.params.id) } }),

  'POST /v1/leads/{id}/attributes': async (request) => {
    const { db, clock } = services();
    return { status: 200, body: { success: true, data: await mergeAttributes(db, clock, projectCaller(request).project.id, request.params.id, request.body) } };
  },

  'GET /v1/leads/{id}/attributes': async (request) => ({ status: 200, body: { success: true, data: await leadAttributes(services().db, projectCaller(request).project.id, request.params.id) } }),
});
