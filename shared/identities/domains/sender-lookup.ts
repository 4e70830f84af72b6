import type { Needs } from '../../platform/core/dependencies';
import { domainOf } from '../../platform/mail/addresses';
import type { SenderProfile } from './domain';
import { getDomain } from './domain-repository';
import { getSender, listSenders } from './sender-repository';

/** Whether a magic-link sender was confirmed through this project's own link (SES's verification alone never counts). */
export function mailboxConfirmed(sender: SenderProfile): boolean {
  return sender.sender_source === 'magic_link' && sender.email_verified && Boolean(sender.confirmed_at);
}

/** Whether mail may go out from `email`, and whether it is signed by the domain's DKIM. */
export async function senderPermission(deps: Needs<'db'>, projectId: string, email: string): Promise<'domain' | 'mailbox' | 'none'> {
  const domain = await getDomain(deps.db, projectId, domainOf(email));
  if (domain?.can_send) return 'domain';
  const sender = await getSender(deps.db, projectId, email);
  return sender && mailboxConfirmed(sender) ? 'mailbox' : 'none';
}

/** The project's sender profile with this id (a project has few senders). */
export async function findSenderById(deps: Needs<'db'>, projectId: string, id: string): Promise<SenderProfile | undefined> {
  return (await listSenders(deps.db, projectId)).find((s) => s.id === id);
}
