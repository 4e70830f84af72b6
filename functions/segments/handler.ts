import { createSegment, deleteSegment, listProjectSegments, reevaluateSegment, showSegment, updateSegment } from '../../shared/audience/segment-service';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';

/** Endpoint group `segments`: static and dynamic segments (docs/decisions.md, "Leads, segments and custom events"). */
export const handler = apiHandler('segments', {
  'POST /v1/segments': async (request) => ({ status: 201, body: { success: true, segment: await createSegment(services(), projectCaller(request).project.id, request.body) } }),

  'GET /v1/segments': async (request) => ({ status: 200, body: { success: true, data: await listProjectSegments(services(), projectCaller(request).project.id) } }),

  'GET /v1/segments/{id}': async (request) => ({ status: 200, body: { success: true, segment: await showSegment(services(), projectCaller(request).project.id, request.params.id) } }),

  'PATCH /v1/segments/{id}': async (request) => ({
    status: 200,
    body: { success: true, segment: await updateSegment(services(), projectCaller(request).project.id, request.params.id, request.body) },
  }),

  'DELETE /v1/segments/{id}': async (request) => {
    await deleteSegment(services(), projectCaller(request).project.id, request.params.id);
    return { status: 200, body: { success: true } };
  },

  'POST /v1/segments/{id}/evaluate': async (request) => ({
    status: 202,
    body: { success: true, segment: await reevaluateSegment(services(), projectCaller(request).project.id, request.params.id) },
  }),
});
