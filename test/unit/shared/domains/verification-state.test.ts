import type { SendingDomain } from '../../../../shared/identities/domains/domain';
import { registrationRecords } from '../../../../shared/identities/domains/dns-records';
import type { IdentityState } from '../../../../shared/platform/core/ports';
import { UNKNOWN_IDENTITY, applyProviderState } from '../../../../shared/identities/domains/verification-state';

const hosts = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.us-east-1.amazonses.com',
  inboundHost: 'inbound-smtp.us-east-1.amazonaws.com',
  receiving: true,
  dmarcReportsDomain: 'reports.example.net',
  trackingHost: 'track.example.net',
};

const created = new Date('2026-01-01T00:00:00Z');
const now = new Date('2026-01-01T00:10:00Z');

function pending(): SendingDomain {
  return {
    project_id: 'p1',
    domain: 'example.com',
    identity_id: 'i1',
    verification_status: 'pending',
    can_send: false,
    sender_profile_id: 's1',
    verification_token: 'tok',
    dkim_tokens: ['a', 'b', 'c'],
    dns_records: registrationRecords({ identityId: 'i1', token: 'tok', dkimTokens: ['a', 'b', 'c'], hosts }),
    version: 1,
    check_count: 0,
    last_checked_at: null,
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
  };
}

const state = (over: Partial<IdentityState>): IdentityState => ({
  verifiedForSending: false,
  verificationStatus: 'PENDING',
  dkimStatus: 'PENDING',
  mailFromStatus: 'PENDING',
  dkimTokens: ['a', 'b', 'c'],
  createdBy: {},
  ...over,
});
const ready = state({ verifiedForSending: true });
const success = state({ verifiedForSending: true, verificationStatus: 'SUCCESS', dkimStatus: 'SUCCESS', mailFromStatus: 'SUCCESS' });
const failure = state({ verificationStatus: 'FAILED', dkimStatus: 'FAILED' });
const apply = (d: SendingDomain, s: IdentityState, reset = false) => applyProviderState(d, s, now, { resetSpfAndDmarc: reset, ownership: 'verified' });
const applyOwned = (d: SendingDomain, s: IdentityState, ownership: 'not_set' | 'mismatch' | 'verified') =>
  applyProviderState(d, s, now, { resetSpfAndDmarc: false, ownership });

describe('Sending domain state machine (part 3)', () => {
  test('pending stays pending while the provider has not decided; no events', () => {
    const { next, events } = apply(pending(), state({}));
    expect(next.verification_status).toBe('pending');
    expect(next.can_send).toBe(false);
    expect(events).toEqual([]);
    expect(next.next_check_at).toBe('2026-01-01T00:15:00.000Z');
  });

  test('the provider sending before DKIM finishes: domain.send_ready once, can_send true, still pending', () => {
    const first = apply(pending(), ready);
    expect(first.next).toMatchObject({ verification_status: 'pending', can_send: true, send_ready_at: now.toISOString() });
    expect(first.events.map((e) => e.event)).toEqual(['domain.send_ready']);
    expect(first.events[0].data).toEqual({ identity_id: 'i1', domain: 'example.com', can_send: true });
    const second = apply({ ...first.next, pending_events: undefined }, ready);
    expect(second.events).toEqual([]);
  });

  test('domain and DKIM verified: send_ready (if not yet) then domain.verified, with the data of part 6', () => {
    const { next, events } = apply(pending(), success);
    expect(next).toMatchObject({ verification_status: 'verified', can_send: true });
    expect(next.next_check_at).toBeUndefined();
    expect(events.map((e) => e.event)).toEqual(['domain.send_ready', 'domain.verified']);
    expect(events[1].data).toEqual({
      identity_id: 'i1',
      domain: 'example.com',
      verification_status: 'verified',
      previous_verification_status: 'pending',
      can_send: true,
      details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS' },
    });
  });

  test('a domain that stays verified does not re-emit', () => {
    const verified = apply(pending(), success).next;
    expect(apply({ ...verified, pending_events: undefined }, success).events).toEqual([]);
  });

  test('a verified domain stays verified through a temporary provider hiccup', () => {
    const verified = apply(pending(), success).next;
    const { next, events } = apply(verified, state({ verifiedForSending: true, verificationStatus: 'TEMPORARY_FAILURE', dkimStatus: 'SUCCESS' }));
    expect(next.verification_status).toBe('verified');
    expect(events.filter((e) => e.event.startsWith('domain.verified'))).toEqual([]);
  });

  test('verification fails: domain.failed once, can_send false', () => {
    const { next, events } = apply(pending(), failure);
    expect(next).toMatchObject({ verification_status: 'failed', can_send: false });
    expect(events.map((e) => e.event)).toEqual(['domain.failed']);
    expect(events[0].data).toMatchObject({ verification_status: 'failed', previous_verification_status: 'pending', can_send: false });
    expect(apply({ ...next, pending_events: undefined }, failure).events).toEqual([]);
  });

  test('DKIM failing alone fails the domain', () => {
    expect(apply(pending(), state({ verifiedForSending: true, verificationStatus: 'SUCCESS', dkimStatus: 'FAILED' })).next.verification_status).toBe('failed');
  });

  test('an identity the provider does not know leaves the domain pending and unable to send', () => {
    expect(apply(pending(), UNKNOWN_IDENTITY).next).toMatchObject({ verification_status: 'pending', can_send: false });
  });
});

describe('DNS record status on verification (part 3)', () => {
  test('provider, DKIM and return-path records follow the provider; every record is stamped', () => {
    const { next } = apply(pending(), state({ verifiedForSending: true, verificationStatus: 'SUCCESS', dkimStatus: 'PENDING', mailFromStatus: 'FAILED' }), true);
    const status = (purpose: string) => next.dns_records.filter((r) => r.purpose === purpose).map((r) => r.status);
    expect(status('provider_verification')).toEqual(['verified']);
    expect(status('dkim')).toEqual(['propagating', 'propagating', 'propagating']);
    expect(status('return_path')).toEqual(['mismatch', 'mismatch']);
    expect(next.dns_records.every((r) => r.last_checked_at === now.toISOString())).toBe(true);
  });

  test('the verify call resets SPF and DMARC to not_set until the next sweep', () => {
    const swept = pending();
    swept.dns_records = swept.dns_records.map((r) => (r.purpose === 'spf' || r.purpose === 'dmarc' ? { ...r, status: 'verified' } : r));
    const { next } = apply(swept, success, true);
    expect(next.dns_records.filter((r) => r.purpose === 'spf' || r.purpose === 'dmarc').map((r) => r.status)).toEqual(['not_set', 'not_set']);
  });

  test('the periodic re-check leaves SPF and DMARC as the sweep left them', () => {
    const swept = pending();
    swept.dns_records = swept.dns_records.map((r) => (r.purpose === 'spf' ? { ...r, status: 'mismatch' } : r));
    const { next } = apply(swept, success, false);
    expect(next.dns_records.find((r) => r.purpose === 'spf')?.status).toBe('mismatch');
  });
});

describe("Ownership: this project's own TXT token decides, never SES alone", () => {
  test('SES and DKIM verified without the token in DNS: still pending, cannot send, no events', () => {
    const { next, events } = applyOwned(pending(), success, 'not_set');
    expect(next).toMatchObject({ verification_status: 'pending', can_send: false });
    expect(next.send_ready_at).toBeUndefined();
    expect(events).toEqual([]);
    expect(next.dns_records.find((r) => r.purpose === 'provider_verification')?.status).toBe('not_set');
    expect(next.next_check_at).toBeDefined();
  });

  test("another project's token at the name is a mismatch, not a proof", () => {
    const { next } = applyOwned(pending(), success, 'mismatch');
    expect(next).toMatchObject({ verification_status: 'pending', can_send: false });
    expect(next.dns_records.find((r) => r.purpose === 'provider_verification')?.status).toBe('mismatch');
  });

  test('the token found and SES verified: verified, can send', () => {
    expect(applyOwned(pending(), success, 'verified').next).toMatchObject({ verification_status: 'verified', can_send: true });
  });

  test('a verified domain stays the owner\'s when its token is later removed', () => {
    const verified = applyOwned(pending(), success, 'verified').next;
    expect(applyOwned({ ...verified, pending_events: undefined }, success, 'not_set').next).toMatchObject({ verification_status: 'verified', can_send: true });
  });

  test('a failure at SES still fails the domain, token or not', () => {
    expect(applyOwned(pending(), failure, 'not_set').next.verification_status).toBe('failed');
  });
});
