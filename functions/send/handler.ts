import { projectCaller, publicBaseUrl } from '../../shared/http/api-types';
import { apiHandler } from '../../shared/http/api-handler';
import { services } from '../../shared/container';
import { acceptSingleSend } from '../../shared/sending/accept-send';
import { acceptAdvancedSend } from '../../shared/sending/advanced-send';
import { parseAdvancedSendRequest } from '../../shared/sending/advanced-send-request';
import { parseSendEmailRequest } from '../../shared/sending/send-email-request';
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
    return { status: 200, body: await sendTemplateEmail(services(), projectCaller(request), input, publicBaseUrl(request)) };
  },

  'POST /send-email': async (request) => {
    const input = parseAdvancedSendRequest(request.body, request.headers);
    return { status: 200, body: await acceptAdvancedSend(services(), projectCaller(request), input, publicBaseUrl(request)) };
  },
});
