import * as z from '../zod';
import { partnerSenderSchema } from '../partner/partner-answers';

/** The answer of `GET /domains/senders`: the project's senders, shaped as the partner list shows them. */
export const senderListSchema = z
  .strictObject({ success: z.literal(true), data: z.array(partnerSenderSchema) })
  .check(z.meta({ id: 'SenderList', description: 'The project\'s senders: the id a campaign names, the address, and whether it can send' }));
