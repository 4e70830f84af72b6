import { groupRoutes } from '../../../shared/platform/http/route';
import { addLeadTagsRoute } from './add-lead-tags';
import { addLeadToSegmentsRoute } from './add-lead-to-segments';
import { deleteLeadRoute } from './delete-lead';
import { listLeadTagsRoute } from './list-lead-tags';
import { listLeadsRoute } from './list-leads';
import { mergeLeadAttributesRoute } from './merge-lead-attributes';
import { removeLeadFromSegmentRoute } from './remove-lead-from-segment';
import { removeLeadTagsRoute } from './remove-lead-tags';
import { showLeadRoute } from './show-lead';
import { showLeadAttributesRoute } from './show-lead-attributes';
import { updateLeadRoute } from './update-lead';
import { upsertLeadsRoute } from './upsert-leads';

/** Endpoint group `leads`: leads, their segments, tags and attributes (4.9), one module per route. */
export const leadsRoutes = groupRoutes('leads', [
  upsertLeadsRoute,
  listLeadsRoute,
  showLeadRoute,
  updateLeadRoute,
  deleteLeadRoute,
  addLeadToSegmentsRoute,
  removeLeadFromSegmentRoute,
  addLeadTagsRoute,
  removeLeadTagsRoute,
  listLeadTagsRoute,
  mergeLeadAttributesRoute,
  showLeadAttributesRoute,
]);
