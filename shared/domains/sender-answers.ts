import * as z from '../zod';
import { instantSchema, uuidSchema } from '../http/answer-fields';

/** A sender as part 2 shows it: the project's list and the partner routes. */
export const senderSchema = z
  .strictObject({
    id: uuidSchema,
    from_name: z.string(),
    from_email: z.string(),
    domain_authenticated: z.boolean(),
    sender_source: z.enum(['manual', 'magic_link', 'auto-own-email', 'admin']),
    can_send: z.boolean(),
    email_verified: z.boolean(),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'PartnerSender', description: 'A sender; `domain_authenticated` and `can_send` follow its domain (or, for `magic_link`, its confirmed mailbox)' }));


/** The answer of `GET /domains/senders`: the project's senders, shaped as the partner list shows them. */
export const senderListSchema = z
  .strictObject({ success: z.literal(true), data: z.array(senderSchema) })
  .check(z.meta({ id: 'SenderList', description: 'The project\'s senders: the id a campaign names, the address, and whether it can send' }));
