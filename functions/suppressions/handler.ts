import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { emailParam } from '../../shared/http/path-params';
import { boundedPaginationBlock, parsePageRequest } from '../../shared/http/pagination';
import { addManually, listSuppressions, parseEmails, presentSuppression, removeAddresses, removeOne, requireSuppression } from '../../shared/suppression/suppression-service';

/** Endpoint group `suppressions`: the project's suppression list. */
export const handler = apiHandler('suppressions', {
  'GET /v1/suppressions': async (request) => {
    const page = parsePageRequest(request.query);
    const { entries, ...listed } = await listSuppressions(services(), projectCaller(request).project.id, page, request.query);
    return { status: 200, body: { success: true, data: entries.map(presentSuppression), pagination: boundedPaginationBlock(page, listed) } };
  },

  'POST /v1/suppressions': async (request) => {
    const result = await addManually(services(), projectCaller(request).project, request.body);
    return { status: 201, body: { success: true, ...result } };
  },

  'POST /v1/suppressions/remove': async (request) => {
    const result = await removeAddresses(services(), projectCaller(request).project, parseEmails(request.body), 'api');
    return { status: 200, body: { success: true, ...result } };
  },

  // API Gateway hands path parameters over decoded: decoding again would misread a `%` in an address.
  'GET /v1/suppressions/{email}': async (request) => {
    const email = emailParam(request.params).toLowerCase();
    const entry = await requireSuppression(services(), projectCaller(request).project.id, email);
    return { status: 200, body: { success: true, data: presentSuppression(entry) } };
  },

  'DELETE /v1/suppressions/{email}': async (request) => {
    const result = await removeOne(services(), projectCaller(request).project, emailParam(request.params));
    return { status: 200, body: { success: true, ...result } };
  },
});
