/** An automation's steps as a vertical flow: each step, what it does in words, and links to the steps it goes on to. */
import { useEffect } from 'preact/hooks';
import { Badge } from '../../components/ui';
import type { Schemas } from '../../lib/api';
import { formatCount, formatRate } from '../../lib/format';
import { href } from '../../lib/router';
import { branchesOf, STEP_TYPE_WORDS, stepWords, type KnownNames, type Step } from './automation-words';

/** The element id of a step's block (the flow's links and the refusal point at it). */
export const stepElementId = (id: string) => `step-${id}`;

/** A step's figures, as `GET /v1/automations/{id}/stats` gives them. */
export type StepStats = Schemas['AutomationStats']['data']['steps'][number];

/** A share of a count, or undefined when the count is zero (no rate to speak of). */
const share = (part: number, whole: number) => (whole > 0 ? part / whole : undefined);

/** A step's counts in a row of small figures; a mail step's mails too, with its open and click rates (of the mails delivered). */
function StepFigures(props: { id: string; type: Step['type']; stats: StepStats }) {
  const s = props.stats;
  const figures: [string, string][] = [
    ['Entered', formatCount(s.entered)],
    ['Waiting', formatCount(s.waiting)],
    ['Completed', formatCount(s.completed)],
    ['Exited', formatCount(s.exited)],
    ['Failed', formatCount(s.failed)],
  ];
  if (props.type === 'send_email') {
    const opened = share(s.opened, s.delivered);
    const clicked = share(s.clicked, s.delivered);
    figures.push(
      ['Sent', formatCount(s.sent)],
      ['Delivered', formatCount(s.delivered)],
      ['Opened', formatCount(s.opened)],
      ['Clicked', formatCount(s.clicked)],
      ['Open rate', formatRate(opened)],
      ['Click rate', formatRate(clicked)],
    );
  }
  return (
    <dl class="flow-stats" aria-label={`Figures of step ${props.id}`}>
      {figures.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Scrolls step `id`'s block into view and gives it the keyboard focus. */
export function showStep(id: string): void {
  const target = document.getElementById(stepElementId(id));
  target?.scrollIntoView({ block: 'center' });
  target?.focus({ preventScroll: true });
}

/**
 * The flow of `steps` (the run starts at the first). `focus` is the step a link or a refusal points
 * at: it is scrolled into view and takes the keyboard focus. `refused` marks the step an activation
 * check named, with the API's message. `stats` gives each step's figures (the current version's).
 */
export function StepFlow(props: { automationId: string; steps: readonly Step[]; names: KnownNames; focus?: string; refused?: { step: string; message: string }; stats?: ReadonlyMap<string, StepStats> }) {
  const ids = new Set(props.steps.map((s) => s.id));
  const refusedStep = props.refused?.step;
  // A new refusal shows its step; a link followed shows its target (the refusal's step wins while fresh).
  useEffect(() => {
    if (props.focus) showStep(props.focus);
  }, [props.focus]);
  useEffect(() => {
    if (refusedStep) showStep(refusedStep);
  }, [refusedStep, props.refused?.message]);
  // A link to a step keeps the automation's view and names the step in the query (the hash is the router's).
  const linkTo = (id: string) => href(['automations', props.automationId], { step: id });
  return (
    <ol class="flow" aria-label="Steps, from the first">
      {props.steps.map((step, index) => {
        const refused = props.refused?.step === step.id;
        const branches = branchesOf(step);
        return (
          <li
            key={`${index}-${step.id}`}
            id={stepElementId(step.id)}
            data-step={step.id}
            tabIndex={-1}
            class={`flow-step${refused ? ' refused' : ''}${props.focus === step.id ? ' focused' : ''}`}
            aria-label={`Step ${index + 1}: ${step.id}${refused ? ' (refused)' : ''}`}
          >
            <div class="flow-head">
              <span class="flow-index" aria-hidden="true">
                {index + 1}
              </span>
              <code class="flow-id">{step.id}</code>
              <Badge value={STEP_TYPE_WORDS[step.type]} tone={refused ? 'bad' : 'neutral'} />
              {step.name ? <span class="flow-name">{step.name}</span> : null}
              {index === 0 ? <span class="muted small-text">the run starts here</span> : null}
            </div>
            <p class="flow-does">{stepWords(step, props.names)}</p>
            {props.stats?.get(step.id) ? <StepFigures id={step.id} type={step.type} stats={props.stats.get(step.id)!} /> : null}
            {refused ? (
              <p class="flow-refusal">
                <strong>Refused at activation:</strong> {props.refused?.message}
              </p>
            ) : null}
            {branches.length ? (
              <ul class="flow-branches" aria-label={`Where step ${step.id} goes`}>
                {branches.map((b) => (
                  <li key={b.label}>
                    <span class="flow-branch-label">{b.label}:</span>{' '}
                    {b.to === null ? (
                      <span class="muted">the run ends (completed)</span>
                    ) : ids.has(b.to) ? (
                      <a href={linkTo(b.to)}>
                        step <code>{b.to}</code>
                      </a>
                    ) : (
                      <span class="flow-missing">
                        step <code>{b.to}</code> (no such step)
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <p class="muted small-text flow-end">The run ends here (exited).</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
