import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../../shared/platform/store/client';
import { MailerError, type FileStore, type Mailer, type Queue } from '../../../shared/platform/core/ports';
import type { QueueName } from '../../../shared/platform/core/queues';

/**
 * Fault injection through the ports (shared/platform/core/ports.ts and the table's Db): decorators that wrap the
 * real adapters, so the product code runs unchanged. Faults apply only inside a fault scope (a
 * worker invocation the suite's pump runs), never to the API requests the suite makes itself.
 */

/** A seeded generator (mulberry32): a failing run can be replayed with the seed it printed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What one worker invocation may suffer; set by the pump or the crash enumeration. */
export interface FaultPlan {
  /** Side effects (DynamoDB writes, queue sends, SES sends) allowed before the process dies. */
  crashAfter?: number;
  /** Share of DynamoDB writes refused with ProvisionedThroughputExceededException (nothing written). */
  dbThrottleRate?: number;
  /** Share of SES calls refused (half throttling, half a 5xx). */
  sesFailureRate?: number;
  /**
   * Real milliseconds after which the invocation is killed, as Lambda kills a function at its
   * timeout: with the clock running faster, an invocation must not outlive its claim's lease.
   */
  timeoutMs?: number;
}

/** The live state of one scope: how many side effects ran and whether the process is dead. */
interface ScopeState extends FaultPlan {
  sideEffects: number;
  dead: boolean;
  startedAt: number;
}

const scope = new AsyncLocalStorage<ScopeState>();

/** Thrown where a killed process would have stopped: nothing after it runs. */
export class CrashError extends Error {
  constructor(at: number) {
    super(`Injected crash before side effect ${at + 1}`);
    this.name = 'CrashError';
  }
}

/** Counts of what was injected, for the report and the figures in docs/testing.md. */
export class FaultLog {
  readonly counts: Record<string, number> = {};
  add(kind: string, n = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }
  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/** Runs `work` under `plan`; says whether the injected crash happened and how many side effects ran. */
export async function withFaults<T>(plan: FaultPlan, work: () => Promise<T>): Promise<{ result?: T; crashed: boolean; sideEffects: number }> {
  const state: ScopeState = { ...plan, sideEffects: 0, dead: false, startedAt: Date.now() };
  const result = await scope.run(state, work);
  return { result, crashed: state.dead, sideEffects: state.sideEffects };
}

/** Called before every side effect: a dead process does nothing more; the crash comes after `crashAfter` of them. */
function beforeSideEffect(log: FaultLog): void {
  const state = scope.getStore();
  if (!state) return;
  timeOut(state, log);
  if (state.dead) throw new CrashError(state.sideEffects);
  if (state.crashAfter !== undefined && state.sideEffects >= state.crashAfter) {
    state.dead = true;
    log.add('crash');
    throw new CrashError(state.sideEffects);
  }
  state.sideEffects += 1;
}

/** Reads fail too once the process is dead (it is gone). */
function assertAlive(log: FaultLog): void {
  const state = scope.getStore();
  if (state) timeOut(state, log);
  if (state?.dead) throw new CrashError(state.sideEffects);
}

/** Kills an invocation that ran past its timeout. */
function timeOut(state: ScopeState, log: FaultLog): void {
  if (!state.dead && state.timeoutMs !== undefined && Date.now() - state.startedAt > state.timeoutMs) {
    state.dead = true;
    log.add('lambda_timeout');
  }
}

const WRITES = new Set(['PutCommand', 'UpdateCommand', 'DeleteCommand', 'BatchWriteCommand', 'TransactWriteCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/** The error DynamoDB answers when a partition is over its throughput (the SDK's name and flag). */
function throughputExceeded(): Error {
  const error = new Error('Rate of requests exceeds the allowed throughput (injected).');
  error.name = 'ProvisionedThroughputExceededException';
  Object.assign(error, { $fault: 'client', $metadata: { httpStatusCode: 400 } });
  return error;
}

/** A DynamoDB command as the holds see it: its class name and its input. */
export interface DbCommand {
  constructor: { name: string };
  input?: { ExpressionAttributeValues?: Record<string, unknown> } & Record<string, unknown>;
}

/** A latch on the table: the first command that matches waits at `reached` until `release`. */
export interface Hold {
  /** Resolves when a matching command has arrived and is waiting. */
  readonly reached: Promise<void>;
  /** Lets the held command go on to the table. */
  release(): void;
}

/**
 * Latches that stop one chosen DynamoDB command before it reaches the table, so a race test can
 * put the other side of the race in between, in the order it chooses, instead of hoping timing
 * produces it. Each hold catches one command, then is gone.
 */
export class DbHolds {
  private readonly pending: { match: (command: DbCommand) => boolean; arrived: () => void; gate: Promise<void> }[] = [];

  /** Holds the next command that `match` accepts, from any caller (API or worker). */
  at(match: (command: DbCommand) => boolean): Hold {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.pending.push({ match, arrived, gate });
    return { reached, release };
  }

  /** Waits at the hold `command` matches, if any. */
  async pass(command: DbCommand): Promise<void> {
    const i = this.pending.findIndex((h) => h.match(command));
    if (i < 0) return;
    const [hold] = this.pending.splice(i, 1);
    hold.arrived();
    await hold.gate;
  }
}

/** The table, with writes that count as side effects, can be throttled, and stop at the injected crash. */
export function faultyDb(inner: Db, log: FaultLog, random: () => number, holds?: DbHolds): Db {
  const send = async (command: DbCommand, ...rest: unknown[]) => {
    await holds?.pass(command);
    assertAlive(log);
    if (WRITES.has(command.constructor.name)) {
      const state = scope.getStore();
      if (state?.dbThrottleRate && random() < state.dbThrottleRate) {
        log.add('dynamodb_throttle');
        throw throughputExceeded();
      }
      beforeSideEffect(log);
      log.add('dynamodb_write_seen');
    }
    return (inner.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
  };
  const doc = new Proxy(inner.doc, { get: (target, prop, receiver) => (prop === 'send' ? send : Reflect.get(target, prop, receiver)) });
  return { doc, tableName: inner.tableName };
}

/** SES that throttles or fails with a 5xx on a share of calls, and stops at the injected crash. */
export function faultyMailer(inner: Mailer, log: FaultLog, random: () => number): Mailer {
  return {
    async sendRaw(mail) {
      assertAlive(log);
      const rate = scope.getStore()?.sesFailureRate ?? 0;
      const roll = random();
      if (roll < rate / 2) {
        log.add('ses_throttle');
        throw new MailerError('throttled', 'Maximum sending rate exceeded. (injected)');
      }
      if (roll < rate) {
        log.add('ses_5xx');
        throw new MailerError('transient', 'Service Unavailable (injected 503)');
      }
      beforeSideEffect(log);
      return inner.sendRaw(mail);
    },
  };
}

/** Options of the faulty queue. */
export interface QueueFaults {
  /** Share of messages sent twice (SQS is at-least-once). */
  duplicateRate: number;
  /** Share of messages held back by 1 to 2 s, so that later ones overtake them. */
  reorderRate: number;
  /**
   * How much faster than real time the suite runs: every delay and hidden time the product asks
   * of the queue is divided by it (rounded up), and the services' clock runs this much faster, so
   * that retry backoffs, claim leases and visibility timeouts keep their proportions.
   */
  timeFactor: number;
}

/** The queue port with duplicated, reordered and time-compressed messages; sends stop at the injected crash. */
export function faultyQueue(inner: Queue, log: FaultLog, random: () => number, faults: QueueFaults): Queue {
  const delayOf = (asked: number | undefined) => {
    let delay = Math.ceil((asked ?? 0) / faults.timeFactor);
    if (random() < faults.reorderRate) {
      log.add('sqs_reordered');
      delay += 1 + Math.round(random());
    }
    return delay;
  };
  const copiesOf = () => {
    if (random() < faults.duplicateRate) {
      log.add('sqs_duplicate');
      return 2;
    }
    return 1;
  };
  return {
    async send(queue: QueueName, body, options = {}) {
      beforeSideEffect(log);
      const copies = copiesOf();
      for (let i = 0; i < copies; i++) await inner.send(queue, body, { delaySeconds: delayOf(options.delaySeconds) });
    },
    async sendBatch(queue: QueueName, bodies, options = {}) {
      beforeSideEffect(log);
      const out: unknown[] = [];
      const delays: number[] = [];
      bodies.forEach((body, i) => {
        for (let c = copiesOf(); c > 0; c--) {
          out.push(body);
          delays.push(delayOf(options.delaySeconds?.[i]));
        }
      });
      await inner.sendBatch(queue, out, { delaySeconds: delays });
    },
    async changeVisibility(queue, receiptHandle, seconds) {
      assertAlive(log);
      await inner.changeVisibility(queue, receiptHandle, Math.ceil(seconds / faults.timeFactor));
    },
  };
}

const BLOB_WRITES = new Set(['put', 'startUpload', 'uploadPart', 'completeUpload']);

/** Object storage whose writes count as side effects (a campaign wave's blobs) and stop at the injected crash. */
export function faultyBlobs(inner: FileStore, log: FaultLog): FileStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (BLOB_WRITES.has(String(prop))) beforeSideEffect(log);
        else assertAlive(log);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
