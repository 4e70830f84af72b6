import { services } from '../../../composition/services';
import { domainExamples, mailboxVerificationSchema } from '../../../shared/identities/domains/domain-answers';
import { mailboxConfirmed, presentSender, startMailboxVerification } from '../../../shared/identities/domains/sender-service';
import { toVerifyEmail, verifyEmailBodySchema } from '../../../shared/identities/domains/verify-email-request';
import { errors, json } from '../../../shared/platform/http/answers';
import { publicBaseUrl } from '../../../shared/platform/http/api-types';
import { defineRoute } from '../../../shared/platform/http/route';

/** `POST /domains/verify-email` (4.12): a sender address verified by mail (magic link), without a domain of its own. */
export const verifyEmail = defineRoute({
  method: 'POST',
  path: '/domains/verify-email',
  auth: 'project',
  summary: 'Verify a sender address by magic link',
  description: 'The mailbox owner gets this project\'s own confirmation link; the sender can send once it is followed.',
  body: verifyEmailBodySchema,
  bodyExample: { email: 'owner@example.net', name: 'Owner' },
  answers: {
    201: json(mailboxVerificationSchema, 'The sender, its confirmation on its way (or already verified)', domainExamples.mailbox),
    ...errors('project', {
      403: 'The project is disabled (PROJECT_DISABLED)',
      409: 'The address is a sender on a registered domain already (SENDER_EXISTS)',
    }),
  },
  // Creates the address's SES identity; the link points at the host the request reached, else
  // TRACKING_BASE_URL. SERVICE_NAME: sender-service.ts also holds the confirmation mail (sent by the scheduled check).
  access: { table: 'readWrite', sesIdentities: 'manage', sesTenants: 'manage', settings: ['TRACKING_BASE_URL', 'SERVICE_NAME'] },
  handle: async (request) => {
    const sender = await startMailboxVerification(services(), request.caller.project, toVerifyEmail(request.body), publicBaseUrl(request));
    return {
      status: 201,
      body: {
        success: true,
        sender: presentSender(sender, undefined),
        message: mailboxConfirmed(sender)
          ? `${sender.from_email} is already verified`
          : `Verification email sent to ${sender.from_email}; the sender can send once its owner clicks the link`,
        warning: 'This sender has no DKIM signature of its own domain; register the domain for authenticated sending',
      },
    };
  },
});
