import { services } from '../../../shared/container';
import { getDomain } from '../../../shared/domains/domain-repository';
import { senderListSchema } from '../../../shared/domains/domain-answers';
import { listSenders as readSenders } from '../../../shared/domains/sender-repository';
import { presentSender } from '../../../shared/domains/sender-service';
import { json } from '../../../shared/http/answers';
import { defineRoute } from '../../../shared/http/route';
import { domainOf } from '../../../shared/mail/addresses';
import { projectOf, readDomains } from './identity-view';

/** `GET /v1/senders`: the project's sender addresses and whether each can send, for a sender picker (the console's test send). */
export const listSendersRoute = defineRoute({
  method: 'GET',
  path: '/v1/senders',
  auth: 'project',
  summary: 'The project\'s senders',
  description:
    'Every sender address of the project (registered with a domain, verified by mail, or added by the partner), ordered by address. `can_send` follows its domain, or for a sender verified by mail its confirmed mailbox. ' +
    'Any address of a domain that can send may be used as `sender_email`, listed here or not.',
  answers: {
    200: json(senderListSchema, 'The senders', {
      success: true,
      data: [
        {
          id: '4e1f6a3c-9d5b-4e0a-8c3f-7a8b9c0d1e2f',
          from_name: 'Example Shop',
          from_email: 'hello@mail.example.com',
          domain_authenticated: true,
          sender_source: 'manual',
          can_send: true,
          email_verified: true,
          created_at: '2026-11-20T08:12:44.000Z',
        },
      ],
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const { db } = services();
    const projectId = projectOf(request);
    const senders = await readSenders(db, projectId);
    // A project has few senders, on fewer domains: one read per domain, not the whole domain list.
    const names = [...new Set(senders.map((s) => domainOf(s.from_email)))];
    const domains = new Map(await Promise.all(names.map(async (name) => [name, await getDomain(db, projectId, name)] as const)));
    return { status: 200, body: { success: true, data: senders.map((s) => presentSender(s, domains.get(domainOf(s.from_email)))) } };
  },
});
