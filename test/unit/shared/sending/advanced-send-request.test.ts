import { ADVANCED_SEND_MESSAGES, parseAdvancedSendRequest } from '../../../../shared/mail-pipeline/sending/advanced-send-request';
import { AppError } from '../../../../shared/platform/core/errors';

const valid = () => ({ recipient: 'Ann@Example.com', sender: 'news@example.com', subject: 'Hello', html: '<p>Hi</p>' });

/** The 400 message a body is refused with. */
function refusal(body: unknown, headers: Record<string, string> = {}): string {
  try {
    parseAdvancedSendRequest(body, headers);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('accepted');
}

describe('POST /send-email request', () => {
  describe('required fields', () => {
    it('names every missing field', () => {
      expect(refusal({})).toBe('Missing required fields: recipient, sender, subject, html (or templateId)');
      expect(refusal({ ...valid(), html: ' ' })).toBe('Missing required fields: html (or templateId)');
    });

    it('does not need subject or html with a templateId', () => {
      const input = parseAdvancedSendRequest({ recipient: 'a@example.com', sender: 'n@example.com', templateId: 'F2C1A3B4-1111-4222-8333-123456789ABC' });
      expect(input.templateId).toBe('f2c1a3b4-1111-4222-8333-123456789abc');
      expect(input.subject).toBeUndefined();
    });

    it('accepts a numeric internal template id and refuses anything else', () => {
      expect(parseAdvancedSendRequest({ ...valid(), templateId: 12 }).templateId).toBe('12');
      expect(refusal({ ...valid(), templateId: 'tpl-1' })).toBe('templateId must be a template uuid or internal id');
    });
  });

  describe('recipients', () => {
    it('takes a string or an array, lowercased and deduplicated', () => {
      expect(parseAdvancedSendRequest({ ...valid(), recipient: ['B@example.com', 'b@example.com', 'c@example.com'] }).recipients).toEqual([
        'b@example.com',
        'c@example.com',
      ]);
    });

    it('refuses an empty list, a bad address and more than 50', () => {
      expect(refusal({ ...valid(), recipient: [] })).toBe(ADVANCED_SEND_MESSAGES.recipientShape);
      expect(refusal({ ...valid(), recipient: 'not-an-address' })).toBe('Invalid email address in recipient: not-an-address');
      const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
      expect(refusal({ ...valid(), recipient: many })).toBe(
        'Too many recipients in recipient (51). Maximum is 50. For larger sends use /v1/send-batch.',
      );
    });

    it('limits cc and bcc to 10 each', () => {
      const eleven = Array.from({ length: 11 }, (_, i) => `c${i}@example.com`);
      expect(refusal({ ...valid(), cc: eleven })).toBe('cc accepts at most 10 addresses');
      expect(refusal({ ...valid(), bcc: eleven })).toBe('bcc accepts at most 10 addresses');
    });
  });

  describe('email_type', () => {
    it('defaults to transactional and accepts marketing', () => {
      expect(parseAdvancedSendRequest(valid()).emailType).toBe('transactional');
      expect(parseAdvancedSendRequest({ ...valid(), email_type: 'marketing' }).emailType).toBe('marketing');
    });

    it('refuses other values', () => {
      expect(refusal({ ...valid(), email_type: 'newsletter' })).toBe(ADVANCED_SEND_MESSAGES.emailType);
    });
  });

  describe('custom_headers', () => {
    it.each([
      'X-SES-CONFIGURATION-SET', 'X-SES-MESSAGE-TAGS', 'X-SES-SOURCE-ARN', 'X-SES-FROM-ARN', 'X-SES-RETURN-PATH-ARN', 'x-ses-anything-new',
      'Received', 'Return-Path', 'Authentication-Results', 'Received-SPF', 'DKIM-Signature', 'DomainKey-Signature',
      'ARC-Seal', 'ARC-Message-Signature', 'ARC-Authentication-Results', 'Resent-From', 'Resent-Message-ID', 'resent-to',
      'Return-Receipt-To', 'Delivered-To', 'X-Original-To', 'Envelope-To', 'Errors-To', 'Feedback-ID',
    ])('refuses the control or trace header %s with the reserved-header 400', (name) => {
      expect(refusal({ ...valid(), custom_headers: { [name]: 'x' } })).toBe(ADVANCED_SEND_MESSAGES.reservedHeader(name));
    });

    it('keeps valid headers', () => {
      expect(parseAdvancedSendRequest({ ...valid(), custom_headers: { 'X-Campaign': 'spring', 'X-Priority': 1 } }).customHeaders).toEqual({
        'X-Campaign': 'spring',
        'X-Priority': '1',
      });
    });

    it('refuses headers the service writes itself, whatever their case', () => {
      expect(refusal({ ...valid(), custom_headers: { FROM: 'x@example.com' } })).toBe('custom_headers may not set FROM');
      expect(refusal({ ...valid(), custom_headers: { 'list-unsubscribe': '<x>' } })).toBe('custom_headers may not set list-unsubscribe');
      expect(refusal({ ...valid(), custom_headers: { 'In-Reply-To': '<x@y>' } })).toBe('custom_headers may not set In-Reply-To');
    });

    it('refuses header injection and malformed names', () => {
      expect(refusal({ ...valid(), custom_headers: { 'X-A': 'a\r\nBcc: victim@example.com' } })).toMatch(/must be one line/);
      expect(refusal({ ...valid(), custom_headers: { 'X A': 'b' } })).toBe('custom_headers has an invalid header name: X A');
      expect(refusal({ ...valid(), custom_headers: ['X-A'] })).toMatch(/custom_headers must be an object/);
    });
  });

  describe('threading', () => {
    it('adds the angle brackets a Message-ID needs', () => {
      const input = parseAdvancedSendRequest({ ...valid(), in_reply_to: 'abc@mail.example.com', references: 'one@x.com <two@x.com>' });
      expect(input.inReplyTo).toBe('<abc@mail.example.com>');
      expect(input.references).toEqual(['<one@x.com>', '<two@x.com>']);
    });

    it('takes references as an array', () => {
      expect(parseAdvancedSendRequest({ ...valid(), references: ['<a@x.com>', 'b@x.com'] }).references).toEqual(['<a@x.com>', '<b@x.com>']);
    });

    it('refuses ids with spaces or brackets inside', () => {
      expect(refusal({ ...valid(), in_reply_to: '<a b@x.com>' })).toMatch(/in_reply_to must be a Message-ID/);
      expect(refusal({ ...valid(), references: 42 })).toBe('references must be a string or array of strings');
    });
  });

  describe('other fields', () => {
    it('reads campaign and automation ids as uuids', () => {
      expect(refusal({ ...valid(), campaign_id: '12' })).toBe('campaign_id must be a uuid');
      expect(refusal({ ...valid(), automation_run_id: 'x' })).toBe('automation_run_id must be a uuid');
    });

    it('reads dry_run as a boolean only', () => {
      expect(parseAdvancedSendRequest({ ...valid(), dry_run: true }).dryRun).toBe(true);
      expect(parseAdvancedSendRequest(valid()).dryRun).toBe(false);
      expect(refusal({ ...valid(), dry_run: 'yes' })).toBe('dry_run must be a boolean');
    });

    it('reads data as an object', () => {
      expect(refusal({ ...valid(), data: [1] })).toBe('data must be an object');
    });

    it('keeps scheduled_at and timezone as text for the scheduler', () => {
      const input = parseAdvancedSendRequest({ ...valid(), scheduled_at: 'tomorrow at 3pm', timezone: 'Europe/Berlin' });
      expect(input).toMatchObject({ scheduledAt: 'tomorrow at 3pm', timezone: 'Europe/Berlin' });
    });

    it('checks environment as part 8 says', () => {
      expect(refusal({ ...valid(), environment: 'bad env' })).toMatch(/environment must match/);
    });
  });

  describe('x-source header', () => {
    it('accepts api, platform and test', () => {
      expect(parseAdvancedSendRequest(valid(), { 'x-source': 'Platform' }).source).toBe('platform');
      expect(parseAdvancedSendRequest(valid()).source).toBeUndefined();
    });

    it('refuses other values', () => {
      expect(refusal(valid(), { 'x-source': 'cron' })).toBe(ADVANCED_SEND_MESSAGES.source);
    });
  });
});
