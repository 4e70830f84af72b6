import { graphProblem } from '../../../../../shared/marketing/automations/automation-graph';
import type { Step } from '../../../../../shared/marketing/automations/definition';

const TEMPLATE = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const SENDER = 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f';
const send = (id: string, next: string | null = null): Step => ({ id, type: 'send_email', template_id: TEMPLATE, sender_profile_id: SENDER, email_type: 'marketing', next });
const wait = (id: string, next: string | null = null): Step => ({ id, type: 'wait', duration: { days: 1 }, next });
const condition = (id: string, condition: Extract<Step, { type: 'condition' }>['condition'], yes: string | null, no: string | null): Step => ({ id, type: 'condition', condition, yes, no });
const tag = (id: string, next: string | null = null): Step => ({ id, type: 'update_lead', add_tags: ['x'], next });

describe('the graph checks', () => {
  test('pass the welcome series (send, wait, not opened -> second mail)', () => {
    expect(graphProblem([send('welcome', 'wait'), wait('wait', 'opened'), condition('opened', { opened: 'welcome' }, null, 'nudge'), send('nudge')])).toBeUndefined();
  });

  test('pass a loop that passes a wait step', () => {
    expect(graphProblem([send('a', 'w'), wait('w', 'c'), condition('c', { clicked: 'a' }, null, 'a')])).toBeUndefined();
  });

  test('refuse a duplicate id, naming it', () => {
    expect(graphProblem([send('a', 'b'), wait('b'), tag('b')])).toEqual({ step: 'b', message: 'Step "b": its id is used by more than one step' });
  });

  test('refuse a reference to a step that does not exist, naming the field', () => {
    expect(graphProblem([send('a', 'b'), condition('b', { filter: { match: 'all', conditions: [{ tags: { any: ['x'] } }] } }, null, 'missing')])).toEqual({
      step: 'b',
      message: 'Step "b": no names step "missing", which does not exist',
    });
    expect(graphProblem([{ id: 'w', type: 'wait_for_event', event: 'e', timeout: { days: 1 }, on_event: null, on_timeout: 'gone' }])).toEqual({
      step: 'w',
      message: 'Step "w": on_timeout names step "gone", which does not exist',
    });
  });

  test('refuse an opened/clicked condition naming a missing step, a step that sends nothing, or a mail no path sends before it', () => {
    expect(graphProblem([send('a', 'c'), condition('c', { opened: 'nope' }, null, null)])?.message).toBe('Step "c": condition.opened names step "nope", which does not exist');
    expect(graphProblem([wait('a', 'c'), condition('c', { clicked: 'a' }, null, null)])?.message).toBe('Step "c": condition.clicked names step "a", which is not a send_email step');
    expect(graphProblem([condition('c', { opened: 'later' }, 'later', null), send('later')])).toEqual({
      step: 'c',
      message: 'Step "c": condition.opened names step "later", which no path passes before this step',
    });
  });

  test('refuse a step no path from the first reaches', () => {
    expect(graphProblem([send('a', 'b'), wait('b'), send('orphan', 'b')])).toEqual({ step: 'orphan', message: 'Step "orphan": no path from the first step ("a") reaches it' });
  });

  test('refuse a cycle that passes no wait step, naming the steps on it', () => {
    expect(graphProblem([send('a', 'b'), tag('b', 'c'), condition('c', { opened: 'a' }, 'a', null)])).toEqual({
      step: 'a',
      message: 'Step "a": the cycle "a" -> "b" -> "c" -> "a" passes no wait step',
    });
    expect(graphProblem([tag('self', 'self')])?.message).toBe('Step "self": the cycle "self" -> "self" passes no wait step');
  });

  test('pass a graph whose branches meet again', () => {
    expect(graphProblem([condition('c', { filter: { match: 'all', conditions: [{ tags: { any: ['vip'] } }] } }, 'a', 'b'), send('a', 'end'), send('b', 'end'), { id: 'end', type: 'exit' }])).toBeUndefined();
  });
});
