import fs from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_API_THROTTLES } from '../../lib/api';
import { EmailApiStack } from '../../lib/email-api-stack';
import { ACCOUNT_CONCURRENCY, WORKER_MAX_CONCURRENCY } from '../../lib/queue-worker';
import { registrationRecords } from '../../shared/identities/domains/dns-records';
import { schedules } from '../../shared/platform/core/routes';
import { logicalId } from './template-helpers';

// docs/deploy.md (and docs/cost.md, for the alarms) state counts and lists; each is checked here against the synthesized stack, so
// that a change to the stack that makes the guide wrong fails a test. Bundling is skipped.
const guide = fs.readFileSync(path.join(__dirname, '../../docs/deploy.md'), 'utf8');
const root = path.join(__dirname, '../..');

function synth(context: Record<string, string>): { stack: EmailApiStack; template: Record<string, any> } {
  const stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Mailroom', { env: { account: '123456789012', region: 'us-east-1' } });
  return { stack, template: Template.fromStack(stack).toJSON() };
}

let every: ReturnType<typeof synth>;
let none: ReturnType<typeof synth>;
beforeAll(() => {
  every = synth({ inboundDomain: 'reply.example.com', trackingHost: 'track.example.com', alarmEmail: 'ops@example.com', dmarcReportsDomain: 'dmarc.example.com' });
  none = synth({});
});

const count = (template: Record<string, any>, type: string) => Object.values<any>(template.Resources).filter((r) => r.Type === type).length;

/** The number the guide states where `pattern` (with one `(\d+)` group) matches; fails when the guide does not state it. */
function stated(pattern: RegExp): number {
  const m = guide.match(pattern);
  if (!m) throw new Error(`docs/deploy.md no longer says ${pattern}`);
  return Number(m[1].replace(',', ''));
}

describe('the deploy guide states the stack as it is', () => {
  it('the alarm counts: per dead-letter queue, per background function, with and without receiving', () => {
    const alarms = (s: EmailApiStack) => Object.keys(s.monitoring.alarms);
    const dlq = alarms(none.stack).filter((a) => a.startsWith('dlq:')).length;
    const errors = alarms(none.stack).filter((a) => a.startsWith('errors:')).length;
    expect(stated(/one per dead-letter queue \((\d+)\)/)).toBe(dlq);
    expect(stated(/the inbound failure queue \((\d+), with receiving\)/)).toBe(alarms(every.stack).filter((a) => a.startsWith('dlq:')).length - dlq);
    expect(stated(/one per worker and scheduled job \((\d+)\)/)).toBe(errors);
    expect(stated(/and the inbound function \((\d+), with receiving\)/)).toBe(alarms(every.stack).filter((a) => a.startsWith('errors:')).length - errors);
    expect(stated(/In all, (\d+) alarms with receiving/)).toBe(count(every.template, 'AWS::CloudWatch::Alarm'));
    expect(stated(/alarms with receiving and (\d+) without/)).toBe(count(none.template, 'AWS::CloudWatch::Alarm'));
  });

  it("the alarms that docs/cost.md prices", () => {
    const cost = fs.readFileSync(path.join(root, 'docs/cost.md'), 'utf8');
    const row = cost.match(/\| Alarms, with receiving: (\d+) DLQs \(.*?\) \+ (\d+) background functions \+ (\d+) SES rates \(standard\) \| (\d+) \| \$0\.10 each \| \$([\d.]+) \|/);
    expect(row).not.toBeNull();
    const [, dlqs, functions, sesRates, standard, price] = row!.map(Number);
    const alarms = Object.keys(every.stack.monitoring.alarms);
    expect(dlqs).toBe(alarms.filter((a) => a.startsWith('dlq:')).length);
    expect(functions).toBe(alarms.filter((a) => a.startsWith('errors:')).length);
    expect(sesRates).toBe(alarms.filter((a) => a.startsWith('ses-')).length);
    expect(standard).toBe(dlqs + functions + sesRates);
    expect(price).toBeCloseTo(standard * 0.1);
    // The API 5xx alarm is the one more, priced on its own row.
    expect(count(every.template, 'AWS::CloudWatch::Alarm')).toBe(standard + 1);
  });

  it('the queue counts', () => {
    expect(stated(/The (\d+) work queues each have a dead-letter queue/)).toBe(count(none.template, 'AWS::SQS::Queue') / 2);
    expect(stated(/the inbound failure queue makes (\d+) queues/)).toBe(count(every.template, 'AWS::SQS::Queue'));
  });

  it("the queue workers' concurrency: each value, their sum and what the API keeps", () => {
    const mappings = Object.values<any>(every.template.Resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
    const sum = mappings.reduce((total, m) => total + m.Properties.ScalingConfig.MaximumConcurrency, 0);
    expect(stated(/take at most (\d+) of the account's default/)).toBe(sum);
    expect(stated(/account's default ([\d,]+) concurrent executions/)).toBe(ACCOUNT_CONCURRENCY);
    expect(stated(/share the remaining (\d+)/)).toBe(ACCOUNT_CONCURRENCY - sum);
    for (const [queue, max] of Object.entries(WORKER_MAX_CONCURRENCY)) expect(stated(new RegExp(`[\\s(,:]${queue} (\\d+)[\\s,(.]`))).toBe(max);
    expect(stated(/the (\d+) scheduled jobs/)).toBe(Object.keys(schedules).length);
  });

  it('the number of DNS records a registered domain publishes', () => {
    const records = registrationRecords({ identityId: 'i', token: 't', dkimTokens: ['a', 'b', 'c'], hosts: { label: 'amazonses', dkimHost: 'dkim', spfHost: 'spf', feedbackHost: 'fb', inboundHost: 'in', dmarcReportsDomain: 'd' } as never });
    for (const m of guide.matchAll(/the (\d+) (?:records|dns_records)/g)) expect(Number(m[1])).toBe(records.length);
    expect([...guide.matchAll(/the (\d+) (?:records|dns_records)/g)].length).toBeGreaterThanOrEqual(2);
  });

  it('the context table names every context value the stack reads', () => {
    const read = new Set<string>();
    for (const dir of ['lib', 'bin']) {
      for (const file of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.ts'))) {
        for (const m of fs.readFileSync(path.join(root, dir, file), 'utf8').matchAll(/tryGetContext\('([A-Za-z]+)'\)/g)) read.add(m[1]);
      }
    }
    for (const cls of Object.keys(DEFAULT_API_THROTTLES)) for (const kind of ['RateLimit', 'BurstLimit']) read.add(`${cls}${kind}`);
    expect(read).toContain('dmarcReportsDomain');
    const table = guide.slice(guide.indexOf('| Context value |'), guide.indexOf('\n\n', guide.indexOf('| Context value |')));
    const rows = new Set([...table.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
    expect([...read].filter((name) => !rows.has(name))).toEqual([]);
  });

  it("the outputs table names every output of a stack with every option", () => {
    const table = guide.slice(guide.indexOf('| Output |'), guide.indexOf('\n\n', guide.indexOf('| Output |')));
    const rows = [...table.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(Object.keys(every.template.Outputs).sort());
  });
});

describe('docs/operations.md states the stack as it is', () => {
  const operations = fs.readFileSync(path.join(root, 'docs/operations.md'), 'utf8');
  /** The backticked names of a list in the text. */
  const names = (list: string) => [...list.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).sort();

  it('the work queues: their number and their names', () => {
    const m = operations.match(/the\s+(\d+)\s+work\s+queues\s+\(([^)]*)\),\s+each\s+with\s+its\s+DLQ/);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(count(none.template, 'AWS::SQS::Queue') / 2);
    expect(names(m![2])).toEqual(Object.keys(none.stack.queues.queues).sort());
  });

  it('the scheduled jobs: their number, their names and how often each runs', () => {
    const m = operations.match(/per\s+scheduled\s+job\s+\(the\s+(\d+)\s+scheduled\s+jobs,\s+run\s+by\s+EventBridge\s+Scheduler:\s+([^)]*)\)/);
    expect(m).not.toBeNull();
    const jobs = none.stack.scheduling.schedules;
    expect(Number(m![1])).toBe(count(none.template, 'AWS::Scheduler::Schedule'));
    expect(names(m![2])).toEqual(Object.keys(jobs).sort());
    const minutes: Record<string, number> = { minute: 1, hour: 60 };
    const timed: string[] = [];
    for (const [, list, period] of m![2].matchAll(/((?:`[a-z-]+`(?:,\s+|\s+and\s+)?)+)\s+every\s+([\w\s]+?)(?:,|$)/g)) {
      const [, n, unit] = /^(?:(\d+)\s+)?(minute|hour)s?$/.exec(period) ?? [];
      const stated = (n ? Number(n) : 1) * minutes[unit];
      for (const job of names(list)) expect([job, jobs[job].scheduleExpression]).toEqual([job, `rate(${stated} ${stated === 1 ? 'minute' : 'minutes'})`]);
      timed.push(...names(list));
    }
    expect(timed.sort()).toEqual(Object.keys(jobs).sort());
  });
});

describe('the ApiUrl output', () => {
  it("is the API's endpoint, without the stage URL's trailing slash, so `$API/v1/...` has one slash", () => {
    expect(every.template.Outputs.ApiUrl.Value).toEqual({ 'Fn::GetAtt': [logicalId(every.stack.api.httpApi), 'ApiEndpoint'] });
    expect(JSON.stringify(every.template.Outputs.ApiUrl.Value)).not.toMatch(/\/"\]\]\}$/);
  });
});
