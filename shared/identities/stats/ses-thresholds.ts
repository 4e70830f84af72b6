/**
 * SES's thresholds, as fractions, from the SES Developer Guide ("Reputation metrics messages"): an
 * account is put under review at a bounce rate of 5% or a complaint rate of 0.1%, and its sending
 * may be paused at 10% or 0.5%. Apart from the stats so that the campaign guard, which holds each
 * campaign to them, loads nothing else.
 */
export const SES_THRESHOLDS = {
  bounce: { review: 0.05, pause: 0.1 },
  complaint: { review: 0.001, pause: 0.005 },
} as const;

/** Fewer mails than this and a rate means too little to pause on (the campaign guard's and the project watch's sample). */
export const MIN_RATE_SAMPLE = 500;
