import { groupRoutes } from '../../../shared/platform/http/route';
import { activateAutomation } from './activate-automation';
import { createAutomation } from './create-automation';
import { deleteAutomation } from './delete-automation';
import { listAutomations } from './list-automations';
import { pauseAutomation } from './pause-automation';
import { readAutomation } from './read-automation';
import { updateAutomation } from './update-automation';
import { enrollLeads } from './enroll-leads';
import { listAutomationRuns } from './list-automation-runs';
import { readAutomationRun } from './read-automation-run';
import { automationStats } from './automation-stats';

/** Endpoint group `automations`: automations (create, read, edit, activate, pause, archive), enrolment, runs and their timelines, statistics. */
export const automationsRoutes = groupRoutes('automations', [
  createAutomation,
  listAutomations,
  readAutomation,
  updateAutomation,
  deleteAutomation,
  activateAutomation,
  pauseAutomation,
  enrollLeads,
  listAutomationRuns,
  readAutomationRun,
  automationStats,
]);
