/**
 * Campaign counters that delivery events, opens, clicks and unsubscribes add (shared/marketing/campaigns/
 * campaign-counters.ts names them all); each is added once per mail, by the event that made the
 * transition.
 */
export type CampaignEventCounter = 'delivered' | 'hard_bounced' | 'soft_bounced' | 'complained' | 'opened' | 'machine_opened' | 'clicked' | 'unsubscribed';

/**
 * Where campaign counters are gathered: a CampaignCounterBatch (shared/marketing/campaigns), flushed once per
 * worker batch or request by the caller. Named structurally so delivery does not depend on campaigns.
 */
export interface CampaignTally {
  add(campaignId: string, field: CampaignEventCounter): void;
  /** An automation's mail (its activity's `automation_step`): the step's delivered, opened and clicked (automation-tally.ts). */
  addStep?(automationStep: string, field: CampaignEventCounter): void;
}
