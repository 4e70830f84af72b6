/** An automation's steps as a vertical flow: each step, what it does in words, and links to the steps it goes on to. */
import { useEffect } from 'preact/hooks';
import { Badge } from '../../components/ui';
import { href } from '../../lib/router';
import { branchesOf, STEP_TYPE_WORDS, stepWords, type KnownNames, type Step } from './automation-words';

/** The element id of a step's block (the flow's links and the refusal point at it). */
export const stepElementId = (id: string) => `step-${id}`;

/** Scrolls step `id`'s block into view and gives it the keyboard focus. */
export function showStep(id: string): void {
  const target = document.getElementById(stepElementId(id));
  target?.scrollIntoView({ block: 'center' });
  target?.focus({ preventScroll: true });
}

/**
 * The flow of `steps` (the run starts at the first). `focus` is the step a link or a refusal points
 * at: it is scrolled into view and takes the keyboard focus. `refused` marks the step an activation
 * check named, with the API's message.
 */
export function StepFlow(props: { automationId: string; steps: readonly Step[]; names: KnownNames; focus?: string; refused?: { step: string; message: string } }) {
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
