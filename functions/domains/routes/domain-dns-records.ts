import { services } from '../../../composition/services';
import { domainDnsRecordsSchema, domainExamples } from '../../../shared/identities/domains/domain-answers';
import { presentRecord } from '../../../shared/identities/domains/domain-presenter';
import { requireDomain } from '../../../shared/identities/domains/domain-service';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { pathDomain, projectOf, readDomains } from './identity-view';

/** `GET /domains/{domain}/dns-records` (4.12): the stored records and their last status, no DNS lookups. */
export const domainDnsRecords = defineRoute({
  method: 'GET',
  path: '/domains/{domain}/dns-records',
  auth: 'project',
  summary: 'The DNS records to publish',
  answers: {
    200: json(domainDnsRecordsSchema, 'The records and their status at the last check', domainExamples.dnsRecords),
    ...errors('project', {
      400: 'The path names no valid domain',
      404: 'The project has no such domain (DOMAIN_NOT_FOUND)',
    }),
  },
  access: readDomains,
  handle: async (request) => {
    const domain = await requireDomain(services(), projectOf(request), pathDomain(request));
    return {
      status: 200,
      body: {
        success: true,
        identity_id: domain.identity_id,
        domain: domain.domain,
        verification_status: domain.verification_status,
        dns_records: domain.dns_records.map((r) => presentRecord(r, domain.domain)),
      },
    };
  },
});
