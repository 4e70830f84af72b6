import type { DnsRecord, PendingEvent, RecordStatus, SendingDomain, VerificationStatus } from './domain';
import type { IdentityState, ProviderStatus } from '../../platform/core/ports';
import { nextDomainCheckAt } from './recheck-schedule';

const providerToRecord = (status: ProviderStatus): RecordStatus =>
  status === 'SUCCESS' ? 'verified' : status === 'FAILED' ? 'mismatch' : status === 'NOT_STARTED' ? 'not_set' : 'propagating';

/** The provider's answer when it does not know the identity at all. */
export const UNKNOWN_IDENTITY: IdentityState = {
  verifiedForSending: false,
  verificationStatus: 'NOT_STARTED',
  dkimStatus: 'NOT_STARTED',
  mailFromStatus: 'NOT_STARTED',
  dkimTokens: [],
  createdBy: {},
};

/**
 * The state machine of part 3 for one provider answer and one ownership check: the domain's new
 * status, `can_send`, record statuses and the events the transition decides. `ownership` is what
 * DNS says of this project's own `provider_verification` TXT token: SES identities are account-wide,
 * so SES's "verified" alone never makes the domain this project's; without the token the domain
 * stays `pending` and cannot send. `domain.send_ready` is decided once, the first
 * time the provider sends for the domain, and before `domain.verified`; `domain.verified` and
 * `domain.failed` only when the status changes to them. A verified domain stays verified through a
 * temporary provider hiccup; only FAILED takes it back.
 */
export function applyProviderState(
  domain: SendingDomain,
  state: IdentityState,
  now: Date,
  options: { resetSpfAndDmarc: boolean; ownership: RecordStatus },
): { next: SendingDomain; events: PendingEvent[] } {
  const at = now.toISOString();
  const previous = domain.verification_status;
  // Once verified, the name is this project's (the domain claim); a token removed later changes nothing.
  const owned = options.ownership === 'verified' || previous === 'verified';
  const failed = state.verificationStatus === 'FAILED' || state.dkimStatus === 'FAILED';
  const succeeded = state.verificationStatus === 'SUCCESS' && state.dkimStatus === 'SUCCESS' && owned;
  let status: VerificationStatus = failed ? 'failed' : succeeded ? 'verified' : 'pending';
  if (previous === 'verified' && status === 'pending') status = 'verified';
  const canSend = state.verifiedForSending && owned && status !== 'failed';

  const records: DnsRecord[] = domain.dns_records.map((r) => {
    switch (r.purpose) {
      case 'provider_verification':
        return { ...r, status: owned ? 'verified' : options.ownership, last_checked_at: at };
      case 'dkim':
        return { ...r, status: providerToRecord(state.dkimStatus), last_checked_at: at };
      case 'return_path':
        return { ...r, status: providerToRecord(state.mailFromStatus), last_checked_at: at };
      case 'spf':
      case 'dmarc':
        return options.resetSpfAndDmarc ? { ...r, status: 'not_set', last_checked_at: at } : r;
      default:
        return r;
    }
  });

  const details = {
    domain_verification: state.verificationStatus,
    dkim_verification: state.dkimStatus,
    mail_from_status: state.mailFromStatus,
  };
  const events: PendingEvent[] = [];
  let sendReadyAt = domain.send_ready_at;
  if (canSend && !sendReadyAt) {
    sendReadyAt = at;
    events.push({ event: 'domain.send_ready', timestamp: at, data: { identity_id: domain.identity_id, domain: domain.domain, can_send: true } });
  }
  if (status !== previous && status !== 'pending') {
    events.push({
      event: status === 'verified' ? 'domain.verified' : 'domain.failed',
      timestamp: at,
      data: {
        identity_id: domain.identity_id,
        domain: domain.domain,
        verification_status: status,
        previous_verification_status: previous,
        can_send: canSend,
        details: { domain_verification: details.domain_verification, dkim_verification: details.dkim_verification },
      },
    });
  }

  const next: SendingDomain = {
    ...domain,
    verification_status: status,
    can_send: canSend,
    dns_records: records,
    details,
    send_ready_at: sendReadyAt,
    pending_events: [...(domain.pending_events ?? []), ...events],
    check_count: domain.check_count + 1,
    next_check_at: status === 'pending' ? nextDomainCheckAt(domain.created_at, now) : undefined,
    last_checked_at: at,
    updated_at: at,
  };
  return { next, events };
}
