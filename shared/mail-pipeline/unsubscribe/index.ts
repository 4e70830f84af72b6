export { ensureUnsubscribeFooter, unsubscribeLinks, type UnsubscribeLinks } from './unsubscribe-links';
export { unsubscribeToken, verifyUnsubscribeToken, verifyViewToken, viewToken, type UnsubscribeToken } from './unsubscribe-tokens';
export { linkPageHeaders, maskEmail, renderInvalidLinkPage, renderLinkErrorPage, renderUnsubscribePage, renderUnsubscribedPage, viewHeaders } from './unsubscribe-pages';
