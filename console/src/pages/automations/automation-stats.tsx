/** An automation's run counts in a row of figures (its steps' figures go into the flow). */
import type { Schemas } from '../../lib/api';
import { formatCount } from '../../lib/format';

export type AutomationStats = Schemas['AutomationStats']['data'];

/** The runs by state: entered, active, waiting, completed, exited, failed. */
export function RunCounts(props: { runs: AutomationStats['runs'] }) {
  const r = props.runs;
  const figures = [
    ['Entered', r.entered],
    ['Active', r.active],
    ['Waiting', r.waiting],
    ['Completed', r.completed],
    ['Exited', r.exited],
    ['Failed', r.failed],
  ] as const;
  return (
    <dl class="stats-row run-counts" aria-label="Runs by state">
      {figures.map(([label, value]) => (
        <div key={label} class="stat-box">
          <dt class="stat-label">{label}</dt>
          <dd class="stat">{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
