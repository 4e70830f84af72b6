import type { ProjectCaller } from '../../platform/auth/authenticate';
import { checkProjectCanSend, defaultSubject, queueSend, type AcceptDeps } from '..';
import type { SingleSendInput } from './send-email-request';

export interface SingleSendAnswer {
  message: string;
  email_id: string;
  project_id: string;
}

/**
 * `POST /v1/send-email`: writes the activity record (`queued`), enqueues one send job, answers.
 * No SES call and no suppression or domain check here: part 3 decides those in the background.
 */
export async function acceptSingleSend(deps: AcceptDeps, caller: ProjectCaller, input: SingleSendInput): Promise<SingleSendAnswer> {
  checkProjectCanSend(caller, input.environment);
  const subject = input.subject ?? defaultSubject(deps);
  const activityId = await queueSend(deps, caller, {
    emailType: 'api',
    environment: input.environment,
    recipientCount: input.to.length + input.cc.length + input.bcc.length,
    payload: {
      from_email: input.senderEmail,
      from_name: input.senderName,
      to: input.to,
      cc: input.cc,
      bcc: input.bcc,
      subject,
      html: input.html,
      text: input.text,
      attachments: input.attachments,
    },
  });
  return { message: 'Email queued for sending', email_id: activityId, project_id: caller.project.id };
}
