import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/**
 * What reading one activity record touches: the table, and for a batch mail the fan-out has not
 * written (or the worker not sent) yet, the batch's content and recipient chunk in the bucket,
 * rendered as the worker will (so the settings its links and headers are built from).
 */
export const readActivityAccess: FunctionAccess = {
  table: 'read',
  payloads: 'read',
  settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
};
