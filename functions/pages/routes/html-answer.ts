import type { ApiResult } from '../../../shared/platform/http/api-types';
import { newNonce } from '../../../shared/platform/pages/page-headers';
import { pageHeaders } from '../../../shared/identities/pages/verification-page';

/** A verification-page answer: the page rendered with a fresh nonce, and its headers allowing only that nonce. */
export function htmlAnswer(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: pageHeaders(nonce), body: render(nonce) };
}

/** A sender-confirmation page as rendered with its headers. */
export const pageAnswer = (status: number, page: { headers: Record<string, string>; body: string }): ApiResult => ({ status, headers: page.headers, body: page.body });
