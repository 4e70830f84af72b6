import { groupRoutes } from '../../../shared/platform/http/route';
import { unsubscribe } from './unsubscribe';
import { unsubscribePage } from './unsubscribe-page';
import { viewInBrowser } from './view-in-browser';

/** Endpoint group `links`: the unsubscribe and view-in-browser pages reached by signed tokens. */
export const linksRoutes = groupRoutes('links', [unsubscribePage, unsubscribe, viewInBrowser]);
