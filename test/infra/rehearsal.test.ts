import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVERY_OPTION, lint, REGION_WITHOUT_RECEIVING, variants } from '../../scripts/rehearse-deploy';

// The deploy rehearsal itself (scripts/rehearse-deploy.ts, run by .ci/run): which stacks it
// synthesizes, and how it reads cfn-lint. cfn-lint is faked here, so this runs on any machine.
describe('the deploy rehearsal', () => {
  it('sets every option: tracking host, alarm e-mail, inbound domain, DMARC reports domain', () => {
    expect(Object.keys(EVERY_OPTION).sort()).toEqual(['alarmEmail', 'dmarcReportsDomain', 'inboundDomain', 'trackingHost']);
  });

  it('synthesizes every option and none in us-east-1 and eu-west-1, and in a region without SES receiving with receiving off', () => {
    const by = (region: string) => variants().filter((v) => v.region === region).map((v) => v.context);
    for (const region of ['us-east-1', 'eu-west-1']) expect(by(region)).toEqual([EVERY_OPTION, {}]);
    const { inboundDomain: _receiving, ...rest } = EVERY_OPTION;
    expect(by(REGION_WITHOUT_RECEIVING)).toEqual([rest, {}]);
  });

  describe("reading cfn-lint's parseable output", () => {
    let dir: string;
    const fake = (stdout: string, exit: number) => {
      const file = path.join(dir, 'cfn-lint');
      fs.writeFileSync(file, `#!/bin/sh\ncat <<'OUT'\n${stdout}\nOUT\nexit ${exit}\n`, { mode: 0o755 });
      return file;
    };
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cfn-lint-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('gives each template its own errors and warnings', async () => {
      const cfnLint = fake(['/t/a.json:10:5:10:20:E3006:Resource type does not exist', '/t/a.json:11:5:11:20:W3005:dependency', '/t/b.json:3:1:3:9:W3005:dependency'].join('\n'), 6);
      const results = await lint(cfnLint, ['/t/a.json', '/t/b.json'], 'eu-central-2');
      expect(results.get('/t/a.json')).toEqual({ errors: ['10:5:10:20:E3006:Resource type does not exist'], others: ['11:5:11:20:W3005:dependency'] });
      expect(results.get('/t/b.json')).toEqual({ errors: [], others: ['3:1:3:9:W3005:dependency'] });
    });

    it('fails on output it cannot attribute to a template, or when cfn-lint could not run', async () => {
      await expect(lint(fake('Traceback: something broke', 2), ['/t/a.json'], 'us-east-1')).rejects.toThrow(/cannot attribute/);
      await expect(lint(fake('', 1), ['/t/a.json'], 'us-east-1')).rejects.toThrow(/failed to run/);
    });
  });
});
