import { groupRoutes } from '../../../shared/platform/http/route';

/** Endpoint group `automations`: automations (create, read, edit, activate, pause, archive), enrolment, runs and their timelines, statistics. */
export const automationsRoutes = groupRoutes('automations', []);
