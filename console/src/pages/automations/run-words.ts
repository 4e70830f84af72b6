/** A run's states and its timeline in words: what came of each step the run began. */
import type { Schemas } from '../../lib/api';
import { formatInstant } from '../../lib/format';

export type Run = Schemas['AutomationRun'];
export type RunEntry = Schemas['AutomationRunStep'];
export type RunState = Run['state'];

/** The run states, in the order a run goes through them. */
export const RUN_STATES: readonly RunState[] = ['active', 'waiting', 'completed', 'exited', 'failed'];

/** The tone of a run state's badge (the word always shows beside the colour). */
export const RUN_STATE_TONES: Record<RunState, 'good' | 'bad' | 'warn' | 'neutral'> = {
  active: 'good',
  waiting: 'neutral',
  completed: 'good',
  exited: 'warn',
  failed: 'bad',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The ways a branch entry names, as words. */
const BRANCH_WORDS: Record<string, string> = {
  yes: 'took the Yes way',
  no: 'took the No way',
  event: 'the event came: took the On event way',
  timeout: 'no event in time: took the On timeout way',
};

/** A timeline entry's outcome in words: "Mail sent", "Waiting until 28 Nov 2026, 09:30", "Took the No way". */
export function outcomeWords(entry: RunEntry): string {
  const d = entry.detail;
  switch (entry.outcome) {
    case 'sent':
      return 'Mail sent';
    case 'skipped_suppressed':
      return `Not sent: the address is suppressed${text(d.reason) ? ` (${text(d.reason)})` : ''}`;
    case 'waiting': {
      const until = text(d.until) ? ` until ${formatInstant(text(d.until))}` : '';
      const zone = text(d.zone) ? ` (${text(d.zone)})` : '';
      const event = text(d.event) ? ` for event ${text(d.event)}` : '';
      return `Waiting${event}${until}${zone}`;
    }
    case 'branch': {
      const way = text(d.branch) ?? '';
      const words = BRANCH_WORDS[way] ?? `took the ${way} way`;
      return words.charAt(0).toUpperCase() + words.slice(1);
    }
    case 'updated': {
      const parts = [
        texts(d.add_tags).length ? `tags added: ${texts(d.add_tags).join(', ')}` : '',
        texts(d.remove_tags).length ? `tags removed: ${texts(d.remove_tags).join(', ')}` : '',
        texts(d.set_attributes).length ? `attributes set: ${texts(d.set_attributes).join(', ')}` : '',
      ].filter(Boolean);
      return `Lead updated${parts.length ? ` (${parts.join('; ')})` : ''}`;
    }
    case 'posted':
      return `Webhook posted${text(d.webhook_id) ? ` to ${text(d.webhook_id)}` : ''}`;
    case 'failed':
      return `Failed${text(d.reason) ? ` (${text(d.reason)})` : ''}${text(d.error) ? `: ${text(d.error)}` : ''}`;
    case 'exited':
      return 'The run exited here';
    default:
      return entry.outcome.replace(/_/g, ' ');
  }
}

/** A run's end reason in words (the API's token stays beside it). */
export function endReasonWords(reason: string | null): string {
  if (!reason) return '—';
  if (reason === 'completed') return 'completed its last step';
  if (reason === 'exit_step') return 'reached an exit step';
  if (reason === 'archived') return 'the automation was archived';
  if (reason.startsWith('goal_event:')) return `goal event ${reason.slice('goal_event:'.length)}`;
  if (reason.startsWith('segment_left:')) return `left segment ${reason.slice('segment_left:'.length)}`;
  return reason.replace(/_/g, ' ');
}
