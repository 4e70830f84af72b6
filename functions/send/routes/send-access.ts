import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/**
 * What accepting a send touches: writes the queued activity, stores a large payload, enqueues one
 * message per activity, or stores a scheduled send and queues the fire message of one due within
 * the sweep's lookahead. TRACKING_BASE_URL has no value behind the API: the links then use the URL
 * the request reached.
 */
export const sendAccess: FunctionAccess = {
  table: 'readWrite',
  enqueue: ['send', 'scheduled'],
  payloads: 'put',
  settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
};
