import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { segmentAnswerSchema, segmentExamples } from '../../../shared/audience/leads/segment-answers';
import { segmentCreateBodySchema, toSegmentCreate } from '../../../shared/audience/leads/segment-request';
import { createSegment as create } from '../../../shared/audience/leads/segment-service';

/** `POST /v1/segments`: a static segment, or with `filter` a dynamic one whose first evaluation starts at once. */
export const createSegment = defineRoute({
  method: 'POST',
  path: '/v1/segments',
  auth: 'project',
  summary: 'Create a segment (static, or dynamic with a filter)',
  description:
    'Without `filter`, a static segment: leads join it through the leads API. With `filter`, a dynamic segment: its members are the leads the filter matches, found in the background; the answer shows the first evaluation `running`.',
  body: segmentCreateBodySchema,
  bodyExample: { name: 'VIP buyers', filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }, { event: 'purchase', done: true, within_days: 30 }] } },
  answers: {
    201: json(segmentAnswerSchema, 'Created', { success: true, segment: segmentExamples.dynamic }),
    ...errors('project', {
      400: 'Invalid body (the first problem, in the order of part 7: `name is required`, `filter.conditions[0].op must be one of ...`), or the project has 500 segments already',
      409: 'Segments of the project are being created or deleted concurrently; try again (CONFLICT)',
    }),
  },
  // A dynamic segment's first evaluation: one job per shard on the audience queue.
  access: { table: 'readWrite', enqueue: ['audience'] },
  handle: async (request) => ({ status: 201, body: { success: true, segment: await create(services(), request.caller.project.id, toSegmentCreate(request.body)) } }),
});
