import { groupRoutes } from '../../../shared/platform/http/route';
import { enrollLeads } from './enroll-leads';
import { listAutomationRuns } from './list-automation-runs';
import { readAutomationRun } from './read-automation-run';
import { automationStats } from './automation-stats';

/** Endpoint group `automations`: automations (create, read, edit, activate, pause, archive), enrolment, runs and their timelines, statistics. */
export const automationsRoutes = groupRoutes('automations', [
  enrollLeads,
  listAutomationRuns,
  readAutomationRun,
  automationStats,
]);
