import { automationDeletedAnswerSchema, automationNotFoundSchema, automationStateConflictsSchema } from '../../../shared/marketing/automations/automation-answers';
import { deleteAutomation as remove } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { automationArchived, automationNotFound } from './automation-examples';

/** `DELETE /v1/automations/{id}`: a draft is deleted; anything else archived. */
export const deleteAutomation = defineRoute({
  method: 'DELETE',
  path: '/v1/automations/{id}',
  auth: 'project',
  summary: 'Delete a draft, or archive an automation that was ever active',
  description: 'Archiving is final: no new entries, runs in flight end (`exited`, reason `archived`) when they next wake, and its templates are free to delete again.',
  answers: {
    200: json(automationDeletedAnswerSchema, 'Deleted (a draft) or archived', { success: true, archived: true }),
    404: json(automationNotFoundSchema, 'No automation of the project has this id (NOT_FOUND)', automationNotFound),
    409: json(automationStateConflictsSchema, 'Already archived (INVALID_STATE), or it changed under the request (CONFLICT: retry)', automationArchived),
  },
  // Deletes the draft or archives: the trigger entry and the template uses go.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: await remove(services(), request.caller, request.params.id) }),
});
