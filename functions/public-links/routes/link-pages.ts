import type { ApiResult } from '../../../shared/platform/http/api-types';
import { logger } from '../../../shared/platform/core/logger';
import { newNonce } from '../../../shared/platform/pages/page-headers';
import { linkPageHeaders, renderInvalidLinkPage, renderLinkErrorPage } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-pages';

/** A page of the link host, with its own nonce. */
export function linkPage(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: linkPageHeaders(nonce), body: render(nonce) };
}

/** The page of a token that is tampered with or names nothing. */
export const invalidLink = (): ApiResult => linkPage(404, renderInvalidLinkPage);

/** A page, not an API: the visitor gets an HTML error page, the log gets the error. */
export async function guarded(requestId: string, what: string, run: () => Promise<ApiResult>): Promise<ApiResult> {
  try {
    return await run();
  } catch (error) {
    logger.error(`${what} failed`, { requestId, error: error as Error });
    return linkPage(500, renderLinkErrorPage);
  }
}
