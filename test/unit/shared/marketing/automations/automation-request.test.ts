import { parseRequest } from '../../../../../shared/platform/core/validate';
import { automationBodySchema, toAutomationRequest, type AutomationRequest } from '../../../../../shared/marketing/automations/automation-request';

const TEMPLATE = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const SENDER = 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f';
const SEGMENT = '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d';

const send = (id: string, next: string | null = null) => ({ id, type: 'send_email', template_id: TEMPLATE, sender_profile_id: SENDER, next });
const body = (over: Record<string, unknown> = {}) => ({ name: 'Welcome', trigger: { type: 'event', event: 'signed_up' }, steps: [send('first')], ...over });
const withStep = (step: Record<string, unknown>) => body({ steps: [step] });

const parse = (value: unknown): AutomationRequest => toAutomationRequest(parseRequest(automationBodySchema, value));
/** The 400 message a body is refused with. */
function refusal(value: unknown): string {
  try {
    parse(value);
  } catch (error) {
    expect((error as { status: number }).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('an automation body', () => {
  test('takes the welcome series and applies the defaults: entry {filter: null, reentry: once}, exit [], email_type marketing, next null', () => {
    const parsed = parse(
      body({
        name: '  Welcome series ',
        exit: [{ type: 'event', event: 'purchased' }],
        steps: [
          { ...send('welcome', 'wait'), template_id: TEMPLATE.toUpperCase() },
          { id: 'wait', type: 'wait', duration: { days: 2 }, next: 'opened' },
          { id: 'opened', type: 'condition', condition: { opened: 'welcome' }, no: 'nudge' },
          { ...send('nudge'), subject: 'Did you see this?', email_type: 'transactional' },
        ],
      }),
    );
    expect(parsed).toEqual({
      name: 'Welcome series',
      definition: {
        trigger: { type: 'event', event: 'signed_up' },
        entry: { filter: null, reentry: 'once' },
        exit: [{ type: 'event', event: 'purchased' }],
        steps: [
          { id: 'welcome', type: 'send_email', template_id: TEMPLATE, sender_profile_id: SENDER, email_type: 'marketing', next: 'wait' },
          { id: 'wait', type: 'wait', duration: { days: 2 }, next: 'opened' },
          { id: 'opened', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'nudge' },
          { id: 'nudge', type: 'send_email', template_id: TEMPLATE, sender_profile_id: SENDER, subject: 'Did you see this?', email_type: 'transactional', next: null },
        ],
      },
    });
  });

  test('takes the renewal reminder: a date trigger 3 days before renewal_date at 09:00', () => {
    const parsed = parse(body({ trigger: { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00' } }));
    expect(parsed.definition.trigger).toEqual({ type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00', yearly: false });
  });

  test('keeps an entry filter in its stored form and the after_days rule with its days', () => {
    const parsed = parse(body({ entry: { filter: { conditions: [{ tags: { any: ['vip'] } }] }, reentry: 'after_days', reentry_days: 30 } }));
    expect(parsed.definition.entry).toEqual({ filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }] }, reentry: 'after_days', reentry_days: 30 });
  });

  test('takes every step type', () => {
    const steps = [
      { ...send('a', 'b') },
      { id: 'b', type: 'wait_until', time: '09:00', weekdays: [5, 1], timezone_attribute: 'tz', next: 'c' },
      { id: 'c', type: 'wait_for_event', event: 'purchased', conditions: [{ property: 'total', op: 'gte', value: 50 }], timeout: { hours: 12 }, on_event: 'd', on_timeout: 'e' },
      { id: 'd', type: 'update_lead', add_tags: [' buyer '], set_attributes: { plan: 'pro', trial: null }, add_segment_ids: [SEGMENT], next: 'e' },
      { id: 'e', type: 'webhook', webhook_id: 'live', next: 'f' },
      { id: 'f', type: 'condition', condition: { filter: { match: 'any', conditions: [{ attribute: 'plan', op: 'eq', value: 'pro' }] } }, yes: 'g' },
      { id: 'g', type: 'exit' },
    ];
    const parsed = parse(body({ steps }));
    expect(parsed.definition.steps.map((s) => s.type)).toEqual(['send_email', 'wait_until', 'wait_for_event', 'update_lead', 'webhook', 'condition', 'exit']);
    expect(parsed.definition.steps[1]).toEqual({ id: 'b', type: 'wait_until', time: '09:00', timezone_attribute: 'tz', weekdays: [1, 5], next: 'c' });
    expect(parsed.definition.steps[3]).toEqual({ id: 'd', type: 'update_lead', add_tags: ['buyer'], set_attributes: { plan: 'pro', trial: null }, add_segment_ids: [SEGMENT], next: 'e' });
  });
});

describe('an automation body is refused with a message naming the field', () => {
  test.each([
    ['not an object', 5, 'The body must be an object {name, trigger, entry?, exit?, steps}'],
    ['no name', { trigger: { type: 'manual' }, steps: [send('a')] }, 'name must be a non-empty string of at most 200 characters'],
    ['a blank name', body({ name: '  ' }), 'name must be a non-empty string of at most 200 characters'],
    ['an unknown trigger', body({ trigger: { type: 'cron' } }), 'trigger.type must be one of event, lead_created, tag_added, segment_entered, date, manual'],
    ['a trigger that is no object', body({ trigger: 'signed_up' }), 'trigger must be an object with a type'],
    ['an event trigger without its event', body({ trigger: { type: 'event' } }), 'trigger.event must be a non-empty string of at most 200 characters'],
    ['a segment trigger with a bad id', body({ trigger: { type: 'segment_entered', segment_id: 'vip' } }), 'trigger.segment_id must be a uuid'],
    ['a date trigger at 9:00', body({ trigger: { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '9:00' } }), 'trigger.at must be a time of day HH:MM (00:00 to 23:59)'],
    ['a date offset too far', body({ trigger: { type: 'date', attribute: 'renewal_date', offset_days: 400, at: '09:00' } }), 'trigger.offset_days must be a whole number from -365 to 365'],
    ['a trigger condition with a bad op', body({ trigger: { type: 'event', event: 'x', conditions: [{ property: 'p', op: 'like', value: 1 }] } }), 'trigger.conditions[0].op must be one of eq, neq, gt, gte, lt, lte, contains, in, exists, not_exists'],
    ['an in condition without a list', body({ trigger: { type: 'event', event: 'x', conditions: [{ property: 'p', op: 'in', value: 3 }] } }), 'trigger.conditions[0].value must be a non-empty array of strings or numbers for op "in"'],
    ['after_days without its days', body({ entry: { reentry: 'after_days' } }), 'entry.reentry_days is required with reentry "after_days"'],
    ['days without after_days', body({ entry: { reentry: 'once', reentry_days: 3 } }), 'entry.reentry_days needs reentry "after_days"'],
    ['a bad entry filter', body({ entry: { filter: { conditions: [{ attribute: 'plan', op: 'like' }] } } }), 'entry.filter.conditions[0].op must be one of eq, neq, gt, gte, lt, lte, contains, in, exists, not_exists'],
    ['an unknown exit rule', body({ exit: [{ type: 'event', event: 'purchased' }, { type: 'tag_removed' }] }), 'exit[1].type must be one of event, segment_left'],
    ['too many exit rules', body({ exit: Array.from({ length: 11 }, () => ({ type: 'event', event: 'x' })) }), 'exit accepts at most 10 rules'],
    ['no steps', body({ steps: [] }), 'steps must be a non-empty array'],
    ['too many steps', body({ steps: Array.from({ length: 101 }, (_, i) => send(`s${i}`)) }), 'steps accepts at most 100 steps'],
    ['an unknown step type', body({ steps: [send('a'), { id: 'b', type: 'sms' }] }), 'steps[1].type must be one of send_email, wait, wait_until, wait_for_event, condition, update_lead, webhook, exit'],
    ['a step id with a space', withStep({ id: 'first step', type: 'exit' }), 'steps[0].id must be 1 to 64 letters, digits, _ or -'],
    ['a misspelt field', withStep({ id: 'a', type: 'wait', duration: { days: 1 }, nxt: 'b' }), 'steps[0] has an unknown field: nxt'],
    ['a next on an exit step', withStep({ id: 'a', type: 'exit', next: 'b' }), 'steps[0] has an unknown field: next'],
    ['a template id that is no uuid', withStep({ ...send('a'), template_id: 'welcome' }), 'steps[0].template_id must be a uuid'],
    ['a subject with a line break', withStep({ ...send('a'), subject: 'Hi\nthere' }), 'steps[0].subject may not contain line breaks'],
    ['an unknown email type', withStep({ ...send('a'), email_type: 'promo' }), 'steps[0].email_type must be "marketing" or "transactional"'],
    ['a zero duration', withStep({ id: 'a', type: 'wait', duration: { days: 0 } }), 'steps[0].duration must be {days, hours, minutes}: whole numbers, at least one above 0, 365 days in all at most'],
    ['a duration over a year', withStep({ id: 'a', type: 'wait', duration: { days: 365, minutes: 1 } }), 'steps[0].duration must be {days, hours, minutes}: whole numbers, at least one above 0, 365 days in all at most'],
    ['a fractional duration', withStep({ id: 'a', type: 'wait', duration: { hours: 1.5 } }), 'steps[0].duration.hours must be a whole number, 0 or more'],
    ['a bad time', withStep({ id: 'a', type: 'wait_until', time: '24:00' }), 'steps[0].time must be a time of day HH:MM (00:00 to 23:59)'],
    ['a weekday 8', withStep({ id: 'a', type: 'wait_until', time: '09:00', weekdays: [1, 8] }), 'steps[0].weekdays must be an array of distinct weekdays, 1 (Monday) to 7 (Sunday)'],
    ['a wait for event without a timeout', withStep({ id: 'a', type: 'wait_for_event', event: 'purchased' }), 'steps[0].timeout must be an object'],
    ['a condition of two kinds', withStep({ id: 'a', type: 'condition', condition: { opened: 'x', clicked: 'y' } }), 'steps[0].condition must have exactly one of filter, opened, clicked'],
    ['a condition naming a bad step id', withStep({ id: 'a', type: 'condition', condition: { clicked: 'a b' } }), 'steps[0].condition.clicked must be 1 to 64 letters, digits, _ or -'],
    ['a bad condition filter', withStep({ id: 'a', type: 'condition', condition: { filter: { conditions: [] } } }), 'steps[0].condition.filter.conditions must be a non-empty array'],
    ['an update that changes nothing', withStep({ id: 'a', type: 'update_lead', add_tags: [] }), 'steps[0] must change something: add_tags, remove_tags, set_attributes, add_segment_ids or remove_segment_ids'],
    ['a blank tag', withStep({ id: 'a', type: 'update_lead', add_tags: [' '] }), 'steps[0].add_tags must be an array of non-empty strings of at most 100 characters'],
    ['a segment id that is no uuid', withStep({ id: 'a', type: 'update_lead', remove_segment_ids: ['vip'] }), 'steps[0].remove_segment_ids[0] must be a uuid'],
    ['a webhook without its id', withStep({ id: 'a', type: 'webhook' }), "steps[0].webhook_id must be live, dev or an environment's name"],
  ])('%s', (_name, value, message) => {
    expect(refusal(value)).toBe(message);
  });
});
