import type { Aggregate } from '../aggregate-definition';
import { activity } from './activity';
import { customEvent, lead, leadImport, segment } from './audience';
import { automation, automationRun } from './automation';
import { campaign } from './campaign';
import { domainStats, monthlyUsage, projectStats } from './counters';
import { dmarcReport } from './dmarc';
import { domain, replyDomain, sender, trackingDomain } from './identities';
import { mailboxProvider } from './mailbox-provider';
import { idempotencyRecord, inboundMail, suppression, webhookDelivery } from './mail';
import { batch, scheduledSend } from './scheduling';
import { template } from './template';
import { consoleSession, organization, project } from './tenancy';

// Gateways import their aggregate from its own file (this index is for the document and the tests).
export { activity, automation, automationRun, batch, campaign, mailboxProvider, consoleSession, customEvent, dmarcReport, domain, domainStats, idempotencyRecord, inboundMail, lead, leadImport, monthlyUsage, organization, project, projectStats, replyDomain, scheduledSend, segment, sender, suppression, template, trackingDomain, webhookDelivery };

/** Every stored thing of the single table, by name, in the order of the access-pattern table. */
export const aggregates: Readonly<Record<string, Aggregate>> = {
  organization, project, domain, suppression, activity, sender, replyDomain, trackingDomain, domainStats, projectStats, consoleSession,
  webhookDelivery, inboundMail, template, scheduledSend, idempotencyRecord, batch, monthlyUsage, lead, segment, customEvent, leadImport, campaign, automation, automationRun, dmarcReport, mailboxProvider,
};

