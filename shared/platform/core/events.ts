/**
 * Outbound events (part 6): the envelope every webhook receives and where events go. Both live in
 * shared/platform/core/ports.ts (Services names the publisher, and the platform imports no feature folder);
 * re-exported here so the feature code that names them keeps its import.
 */
export type { EventPublisher, ServiceEvent } from './ports';
