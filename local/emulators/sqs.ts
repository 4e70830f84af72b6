import fs from 'node:fs';
import type { Server } from 'node:http';
import Module from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RunningEmulator } from './dynamodb';
import { closeServer } from './close-server';

/**
 * Four fixes to local-aws-sqs 2.0.2, so that retries, large queues and long polls behave as in SQS:
 * - ChangeMessageVisibility counted as a receive (ApproximateReceiveCount + 1), so a message reached
 *   its DLQ after fewer deliveries than maxReceiveCount;
 * - ReceiveMessage read only the legacy `AttributeNames`, not `MessageSystemAttributeNames`, so
 *   workers never saw the receive count;
 * - ReceiveMessage compared the *visible* messages with the 120,000 in-flight limit, so a queue
 *   holding more than 120,000 messages (a 100,000-recipient campaign's Delivery and Send events)
 *   refused every receive with OverLimit. SQS counts the received, not yet deleted ones;
 * - a long poll (WaitTimeSeconds > 0) waited for MaxNumberOfMessages messages or the whole wait,
 *   so a lone message sat up to a second per queue hop in the local pollers. SQS answers as soon as
 *   it has a message ("returns sooner than WaitTimeSeconds"); so does the patched poll, at its
 *   next 10 ms check (a queue that already holds messages still answers with up to the maximum).
 * The package is loaded from its own source with those lines replaced. A later release that
 * changed those lines is loaded as it is, with a warning to check the fixes are still needed.
 */
const PATCHES: [string, string][] = [
  ['let n=Number(t.record.attributes.ApproximateReceiveCount)+1;', 'let n=Number(t.record.attributes.ApproximateReceiveCount)+(i?0:1);'],
  ['AttributeNames:n,MessageAttributeNames:o}=this.body', 'AttributeNames:n=this.body.MessageSystemAttributeNames,MessageAttributeNames:o}=this.body'],
  ['d=S(this,E).filter(f=>!f.visible).length,c=a-d;', 'd=S(this,E).filter(f=>!f.visible).length,c=d;'],
  ['if(r.length==e){clearInterval(c),clearTimeout(n),o();break}}},10)', 'if(r.length==e)break}r.length>0&&(clearInterval(c),clearTimeout(n),o())},10)'],
];

type SqsModule = typeof import('local-aws-sqs');

function loadPatchedSqs(): SqsModule {
  const file = require.resolve('local-aws-sqs');
  let source = fs.readFileSync(file, 'utf8');
  for (const [from, to] of PATCHES) {
    if (source.includes(from)) source = source.replace(from, to);
    else if (!source.includes(to)) console.warn(`local-aws-sqs changed: check whether this fix is still needed: ${from}`);
  }
  const NodeModule = Module as unknown as { new (id: string): NodeJS.Module & { _compile(src: string, file: string): void }; _nodeModulePaths(dir: string): string[] };
  const patched = new NodeModule(file);
  patched.filename = file;
  patched.paths = NodeModule._nodeModulePaths(path.dirname(file));
  patched._compile(source, file);
  return patched.exports as SqsModule;
}

let sqsModule: SqsModule | undefined;

/** Starts an SQS-compatible server (JSON protocol, delays, visibility timeouts, DLQ redrive). */
export async function startSqs(options: { port: number }): Promise<RunningEmulator> {
  sqsModule ??= loadPatchedSqs();
  const server: Server = await sqsModule.createSqsServer({
    port: options.port,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
    validateDlqDestination: true,
  });
  // Port 0 lets the OS choose, with no window for another process to take the port first.
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => closeServer(server) };
}
