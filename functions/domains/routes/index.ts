import { groupRoutes } from '../../../shared/platform/http/route';
import { domainConnect } from './domain-connect';
import { domainDmarcRoute } from './domain-dmarc';
import { domainDnsRecords } from './domain-dns-records';
import { domainHealthRoute } from './domain-health';
import { domainStatus } from './domain-status';
import { getDomainRoute } from './get-domain';
import { listDomainsRoute } from './list-domains';
import { listSendersRoute } from './list-senders';
import { recreateDomainRoute } from './recreate-domain';
import { registerDomainRoute } from './register-domain';
import { registerReplyDomain } from './register-reply-domain';
import { registerTrackingDomain } from './register-tracking-domain';
import { verifyDomain } from './verify-domain';
import { verifyEmail } from './verify-email';

/** Endpoint group `domains`: sending domains, their records and verification, and senders (4.12). */
export const domainsRoutes = groupRoutes('domains', [
  listDomainsRoute,
  registerDomainRoute,
  domainHealthRoute,
  listSendersRoute,
  registerReplyDomain,
  registerTrackingDomain,
  verifyEmail,
  domainDnsRecords,
  domainDmarcRoute,
  verifyDomain,
  domainStatus,
  domainConnect,
  recreateDomainRoute,
  getDomainRoute,
]);
