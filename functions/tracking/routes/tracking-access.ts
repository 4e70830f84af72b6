import type { FunctionAccess } from '../../../shared/platform/core/function-access';

/**
 * What recording an open or a click touches: the activity, its engagement markers and the day's
 * counters (writes), email.open and email.click on the events queue, and the activity's retention
 * for the records it writes.
 */
export const trackingAccess: FunctionAccess = { table: 'readWrite', enqueue: ['events'], settings: ['ACTIVITY_RETENTION_DAYS'] };
