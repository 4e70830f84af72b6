import { groupRoutes } from '../../../shared/platform/http/route';
import { clickRedirect } from './click-redirect';
import { openPixel } from './open-pixel';

/** Endpoint group `tracking`: the open pixel and the click redirect, reached by signed tokens (no account). */
export const trackingRoutes = groupRoutes('tracking', [openPixel, clickRedirect]);
