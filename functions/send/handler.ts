import { projectCaller } from '../../shared/http/api-types';
import { apiHandler } from '../../shared/http/api-handler';
import { services } from '../../shared/container';
import { acceptSingleSend } from '../../shared/sending/accept-send';
import { parseSendEmailRequest } from '../../shared/sending/send-email-request';

/** Endpoint group `send`: single sends. */
export const handler = apiHandler('send', {
  'POST /v1/send-email': async (request) => {
    const input = parseSendEmailRequest(request.body);
    return { status: 200, body: await acceptSingleSend(services(), projectCaller(request), input) };
  },
});
