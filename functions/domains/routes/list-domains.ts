import * as z from '../../../shared/platform/core/zod';
import { services } from '../../../composition/services';
import { domainExamples, domainListSchema } from '../../../shared/identities/domains/domain-answers';
import { listProjectDomains } from '../../../shared/identities/domains/domain-list';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { projectOf, readDomains } from './identity-view';

/** The list's query: the page, and the cursor of a deeper page. */
const listDomainsQuerySchema = z.object({ ...pageQuerySchema.shape, ...cursorQuerySchema.shape });

/** `GET /domains`: the project's sending domains, newest first, paged. */
export const listDomainsRoute = defineRoute({
  method: 'GET',
  path: '/domains',
  auth: 'project',
  summary: 'The project\'s sending domains',
  description:
    'Newest first, each with its verification status, the SES identity\'s state at the last check (`details`), its reply and tracking subdomains in short, and `created_at`. ' +
    'Stored state only, no lookups (`GET /domains/{domain}/dns-records` gives the records). Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`.',
  query: listDomainsQuerySchema,
  answers: {
    200: json(domainListSchema, 'A page of domains', domainExamples.list),
    ...errors('project', { 400: 'A page parameter out of range, `page` with `cursor`, an offset past 1,000, or a cursor that is not this list\'s' }),
  },
  access: readDomains,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const cursor = listCursor(request.query, page);
    const { data, listed } = await listProjectDomains(services().db, projectOf(request), page, cursor);
    return { status: 200, body: { success: true, data, pagination: boundedPaginationBlock(page, listed) } };
  },
});
