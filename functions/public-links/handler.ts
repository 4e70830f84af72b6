import { decodeBody } from '../../shared/activity/activity-body';
import { getActivity, getActivityWithBody } from '../../shared/activity/activity-repository';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiRequest, ApiResult } from '../../shared/http/api-types';
import { logger } from '../../shared/logger';
import { newNonce } from '../../shared/pages/verification-page';
import { getProject } from '../../shared/projects/project-repository';
import { addSuppressionIfAbsent, type SuppressionEntry } from '../../shared/suppression/suppression-repository';
import { suppressAutomatically } from '../../shared/suppression/suppression-service';
import {
  linkPageHeaders,
  renderInvalidLinkPage,
  renderLinkErrorPage,
  renderUnsubscribePage,
  renderUnsubscribedPage,
  viewHeaders,
} from '../../shared/unsubscribe/unsubscribe-pages';
import { verifyUnsubscribeToken, verifyViewToken, type UnsubscribeToken } from '../../shared/unsubscribe/unsubscribe-tokens';

function page(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: linkPageHeaders(nonce), body: render(nonce) };
}

const invalid = (): ApiResult => page(404, renderInvalidLinkPage);

/** A page, not an API: the visitor gets an HTML error page, the log gets the error. */
async function guarded(request: ApiRequest, what: string, run: () => Promise<ApiResult>): Promise<ApiResult> {
  try {
    return await run();
  } catch (error) {
    logger.error(`${what} failed`, { requestId: request.requestId, error: error as Error });
    return page(500, renderLinkErrorPage);
  }
}

/** The token's content when it is valid and its activity still exists, with the activity's project. */
async function unsubscribeTarget(token: string | undefined): Promise<(UnsubscribeToken & { projectId: string }) | undefined> {
  const content = verifyUnsubscribeToken(token, await services().tokenSecret());
  if (!content) return undefined;
  const activity = await getActivity(services().db, content.activityId);
  return activity ? { ...content, projectId: activity.project_id } : undefined;
}

/** RFC 8058 one-click: a POST whose (form-encoded) body is `List-Unsubscribe=One-Click`. */
function isOneClick(body: unknown): boolean {
  return typeof body === 'string' && /(^|&)List-Unsubscribe=One-Click(&|$)/.test(body.trim());
}

/** Endpoint group `links`: the unsubscribe and view-in-browser pages reached by signed tokens. */
export const handler = apiHandler('links', {
  'GET /u/{token}': (request) =>
    guarded(request, 'Unsubscribe page', async () => {
      const target = await unsubscribeTarget(request.params.token);
      if (!target) return invalid();
      return page(200, (nonce) => renderUnsubscribePage(target.email, nonce));
    }),

  // Mail clients post here without a person (RFC 8058), and the page's button posts here too.
  // Idempotent: an address already suppressed (for any reason) stays as it is.
  'POST /u/{token}': (request) =>
    guarded(request, 'Unsubscribe', async () => {
      const target = await unsubscribeTarget(request.params.token);
      if (!target) return invalid();
      const deps = services();
      const entry: SuppressionEntry = {
        project_id: target.projectId,
        email: target.email,
        reason: 'unsubscribe',
        source: isOneClick(request.body) ? 'one_click' : 'page',
        description: null,
        suppressed_at: deps.clock.now().toISOString(),
      };
      const project = await getProject(deps.db, target.projectId);
      if (project) await suppressAutomatically(deps, project, entry);
      else await addSuppressionIfAbsent(deps.db, entry);
      return page(200, (nonce) => renderUnsubscribedPage(target.email, nonce));
    }),

  'GET /v/{token}': (request) =>
    guarded(request, 'View in browser', async () => {
      const activityId = verifyViewToken(request.params.token, await services().tokenSecret());
      if (!activityId) return invalid();
      const { activity, body } = await getActivityWithBody(services().db, activityId);
      if (!activity || !body) return invalid();
      return { status: 200, headers: viewHeaders(), body: decodeBody(body).html };
    }),
});
