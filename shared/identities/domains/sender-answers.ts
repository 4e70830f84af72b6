import * as z from '../../platform/core/zod';
import { senderProfileSchema } from './domain-answers';

/**
 * A sender as part 2 shows it, on the project's list and the partner routes: the fields of a sender
 * profile, under the partner routes' own component name.
 */
export const senderSchema = z
  .strictObject(senderProfileSchema.shape)
  .check(z.meta({ id: 'PartnerSender', description: 'A sender; `domain_authenticated` and `can_send` follow its domain (or, for `magic_link`, its confirmed mailbox)' }));

/** The answer of `GET /domains/senders`: the project's senders, shaped as the partner list shows them. */
export const senderListSchema = z
  .strictObject({ success: z.literal(true), data: z.array(senderSchema) })
  .check(z.meta({ id: 'SenderList', description: 'The project\'s senders: the id a campaign names, the address, and whether it can send' }));
