import { unprocessable } from '../../platform/core/errors';

/**
 * The bounds on the work of one render. A render is a pure function of the template and its
 * variables, so without a bound a few hundred bytes of nested `{{#each}}` can hold a Lambda (or the
 * local server) for minutes. Both bounds are far above any real mail: a 500-line order with ten
 * fields a line takes about 11,000 steps, and Gmail clips HTML after 102 KB.
 */
export const RENDER_LIMITS = {
  /**
   * Steps per render: one per block body rendered (each `#each` iteration, a `#with`, the branch
   * an `#if`/`#unless` takes, a `{{#section}}`), per helper call and per `{{expression}}` written.
   */
  steps: 20_000,
  /** Characters of rendered output (the HTML, subject or text of one mail). */
  outputChars: 1_000_000,
} as const;

/** The error code of a render refused for exceeding a bound (422). */
export const TEMPLATE_LIMIT_CODE = 'TEMPLATE_LIMIT_EXCEEDED';

/** The stable 422 answer of a render beyond the bounds. */
export function renderLimitError(field: string, bound: 'steps' | 'output') {
  const message =
    bound === 'steps'
      ? `Template in ${field} needs more than ${RENDER_LIMITS.steps} rendering steps (loops, blocks, helpers and expressions)`
      : `Template in ${field} renders to more than ${RENDER_LIMITS.outputChars} characters`;
  return unprocessable(message, TEMPLATE_LIMIT_CODE, { field });
}

/**
 * The counters of one render. Rendering is synchronous, so the engine's helpers find the render
 * they work for in `activeBudget` (set for the duration of one `run` only).
 */
export class RenderBudget {
  private steps = 0;
  private written = 0;

  constructor(readonly field: string) {}

  /** Counts one step of work; throws the 422 past the bound. */
  step(): void {
    if (++this.steps > RENDER_LIMITS.steps) throw renderLimitError(this.field, 'steps');
  }

  /**
   * Counts characters that will end up in the output (escaped expressions); each is written once,
   * so their sum is a lower bound of the output's length, checked as it grows.
   */
  wrote(chars: number): void {
    this.written += chars;
    if (this.written > RENDER_LIMITS.outputChars) throw renderLimitError(this.field, 'output');
  }

  /** Checks one piece of output (a block's accumulated body, the whole render) against the bound. */
  checkLength(chars: number): void {
    if (chars > RENDER_LIMITS.outputChars) throw renderLimitError(this.field, 'output');
  }

  /** Runs `render` with this budget active. */
  run<T>(render: () => T): T {
    const previous = activeBudget;
    activeBudget = this;
    try {
      return render();
    } finally {
      activeBudget = previous;
    }
  }
}

let activeBudget: RenderBudget | undefined;

/** The budget of the render in progress; helpers outside a render (unit tests of a helper) count nothing. */
export function currentBudget(): RenderBudget | undefined {
  return activeBudget;
}
