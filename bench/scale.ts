/**
 * How much `npm run bench` measures. `BENCH_SCALE=small` (the default) gives every figure in about
 * three and a half minutes on the idle 2-core machine (estimated from its parts, docs/testing.md; more under
 * load); `BENCH_SCALE=full` gives the figures docs/cost.md quotes (a million-row import, a
 * 100,000-recipient campaign: about two and a half hours; a 100,000-lead automation journey: about
 * two more, four and a half in all). One size can
 * still be set alone with its own variable (`BENCH_MAILS`, `BENCH_BATCH_RECIPIENTS`...), which wins
 * over the plan; such a run is recorded as `custom`, so that it never passes for either scale.
 */

/** The scales a run can be asked for. */
export const BENCH_SCALES = ['small', 'full'] as const;
export type BenchScale = (typeof BENCH_SCALES)[number];

/** What a run is recorded as in bench/results.json: its scale, or `custom` when a size was set by hand. */
export type ScaleLabel = BenchScale | 'custom';

/** The sizes of one run, one per benchmark. */
export interface ScalePlan {
  /** Single API sends of the cost benchmark (`single`). */
  single_mails: number;
  /** Recipients of the one batch (`batch`). */
  batch_recipients: number;
  /** Recipients of the one campaign, imported as leads first (`campaign`). */
  campaign_recipients: number;
  /** Leads imported into a static segment that starts a send, wait, send journey for each (`automation`; its wait: AUTOMATION_WAIT). */
  automation_leads: number;
  /** Rows of the lead import, and leads the dynamic segment is evaluated over (`audience`). */
  audience_leads: number;
  /** Cold starts timed per function, the median reported (`functions`; one at small scale: a single sample, noisier). */
  function_init_runs: number;
  /** Calls per function whose handler CPU is measured (`functions`). */
  function_cpu_requests: number;
  /** Single sends timed from the API to the outbox with every worker running (`local_cloud`). */
  throughput_mails: number;
  /** The load run of `faults`: single sends, a batch and a campaign at once. */
  load_mails: number;
  load_batch: number;
  load_campaign: number;
  /** The fault soak of `faults`: mails through the pipeline under injected faults. */
  soak_mails: number;
}

/** The variable that sets each size alone. */
export const SIZE_VARIABLES: Record<keyof ScalePlan, string> = {
  single_mails: 'BENCH_MAILS',
  batch_recipients: 'BENCH_BATCH_RECIPIENTS',
  campaign_recipients: 'BENCH_CAMPAIGN_RECIPIENTS',
  automation_leads: 'BENCH_AUTOMATION_LEADS',
  audience_leads: 'BENCH_AUDIENCE_LEADS',
  function_init_runs: 'BENCH_INIT_RUNS',
  function_cpu_requests: 'BENCH_CPU_REQUESTS',
  throughput_mails: 'BENCH_THROUGHPUT_MAILS',
  load_mails: 'BENCH_LOAD_MAILS',
  load_batch: 'BENCH_LOAD_BATCH',
  load_campaign: 'BENCH_LOAD_CAMPAIGN',
  soak_mails: 'BENCH_SOAK_MAILS',
};

/**
 * The two plans. Per-mail figures (write units, requests, dollars) do not depend on the size, so the
 * small plan gives the same per-mail figures; times and rates at size (a million-row import, a
 * 100,000-recipient campaign's hours) need the full plan.
 */
export const SCALE_PLANS: Record<BenchScale, ScalePlan> = {
  small: {
    single_mails: 200,
    batch_recipients: 1_000,
    campaign_recipients: 500,
    automation_leads: 200,
    audience_leads: 5_000,
    function_init_runs: 1,
    function_cpu_requests: 50,
    throughput_mails: 200,
    load_mails: 300,
    load_batch: 100,
    load_campaign: 100,
    soak_mails: 100,
  },
  full: {
    single_mails: 300,
    batch_recipients: 10_000,
    campaign_recipients: 100_000,
    automation_leads: 100_000,
    audience_leads: 1_000_000,
    function_init_runs: 7,
    function_cpu_requests: 200,
    throughput_mails: 300,
    load_mails: 10_000,
    load_batch: 2_000,
    load_campaign: 2_000,
    soak_mails: 1_000,
  },
};

/**
 * How the automation journey's wait passes (bench/automation.ts): at small scale a 20-minute wait the
 * services' clock jumps over, woken by the sweep (the `npm test` variant: the same write units per
 * run, no delayed wake message of its own), so the default run spends no minute idle; at full scale a
 * minute waited out. A run that sets a size by hand keeps its scale's wait.
 */
export const AUTOMATION_WAIT: Record<BenchScale, 'clock_jumped' | 'real'> = { small: 'clock_jumped', full: 'real' };

type Env = Record<string, string | undefined>;

/** The scale `BENCH_SCALE` asks for: `small` when unset. */
export function benchScale(env: Env = process.env): BenchScale {
  const value = (env.BENCH_SCALE ?? '').trim() || 'small';
  if (!(BENCH_SCALES as readonly string[]).includes(value)) throw new Error(`BENCH_SCALE must be one of ${BENCH_SCALES.join(', ')}, not "${value}"`);
  return value as BenchScale;
}

/** The sizes of this run: the scale's plan, with each size a variable sets in its place. */
export function scalePlan(env: Env = process.env): ScalePlan {
  const plan = { ...SCALE_PLANS[benchScale(env)] };
  for (const [size, variable] of Object.entries(SIZE_VARIABLES) as [keyof ScalePlan, string][]) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${variable} must be a whole number of 0 or more, not "${raw}"`);
    plan[size] = value;
  }
  return plan;
}

/** What this run's figures are recorded as: the scale, or `custom` when a variable changed one of its sizes. */
export function scaleLabel(env: Env = process.env): ScaleLabel {
  const scale = benchScale(env);
  const plan = scalePlan(env);
  const planned = SCALE_PLANS[scale];
  return (Object.keys(planned) as (keyof ScalePlan)[]).every((size) => plan[size] === planned[size]) ? scale : 'custom';
}
