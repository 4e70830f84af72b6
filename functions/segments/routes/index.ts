import { groupRoutes } from '../../../shared/platform/http/route';
import { createSegment } from './create-segment';
import { deleteSegment } from './delete-segment';
import { evaluateSegment } from './evaluate-segment';
import { getSegment } from './get-segment';
import { listSegments } from './list-segments';
import { updateSegment } from './update-segment';

/** Endpoint group `segments`: static and dynamic segments (docs/decisions.md, "Leads, segments and custom events"). */
export const segmentsRoutes = groupRoutes('segments', [createSegment, listSegments, getSegment, updateSegment, deleteSegment, evaluateSegment]);
