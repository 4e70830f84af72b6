import { projectCaller, publicBaseUrl } from '../../shared/http/api-types';
import { apiHandler } from '../../shared/http/api-handler';
import { services } from '../../shared/container';
import { acceptSingleSend } from '../../shared/sending/accept-send';
import { acceptAdvancedSend } from '../../shared/sending/advanced-send';
import { parseAdvancedSendRequest } from '../../shared/sending/advanced-send-request';
import { parseSendEmailRequest } from '../../shared/sending/send-email-request';
import { getTemplate, getTemplateByInternalId } from '../../shared/templates/template-repository';
import { sendTemplateEmail } from '../../shared/sending/template-send';
import { parseTemplateSendRequest } from '../../shared/sending/template-send-request';

/** Endpoint group `send`: single sends (v1 plain and template, and the advanced send with scheduling and dry runs). */
export const handler = apiHandler('send', {
  'POST /v1/send-email': async (request) => {
    const input = parseSendEmailRequest(request.body);
    return { status: 200, body: await acceptSingleSend(services(), projectCaller(request), input) };
  },

  'POST /v1/send-template-email': async (request) => {
    const input = parseTemplateSendRequest(request.body);
    const { db } = services();
    const answer = await sendTemplateEmail(services(), projectCaller(request), input, (projectId, ref) =>
      ref.id ? getTemplate(db, projectId, ref.id) : getTemplateByInternalId(db, projectId, ref.internalId as number),
    publicBaseUrl(request),
    );
    return { status: 200, body: answer };
  },

  'POST /send-email': async (request) => {
    const input = parseAdvancedSendRequest(request.body, request.headers);
    return { status: 200, body: await acceptAdvancedSend(services(), projectCaller(request), input, publicBaseUrl(request)) };
  },
});
