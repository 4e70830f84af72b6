import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalCloud, type LocalCloud } from '../../local/cloud';
import { loopbackArgs } from '../../local/emulators/dynamodb';
import { freePort } from '../../local/free-port';

/**
 * The local cloud is for one machine: every socket it listens on (DynamoDB Local, SQS, SES and its
 * inner server, S3, DNS, the API) is bound to 127.0.0.1, so nobody else on the network reaches
 * the projects' data. Read from /proc (Linux): each listening socket of this process and its
 * children (DynamoDB Local's JVM), with its local address.
 */

const onLinux = process.platform === 'linux' ? describe : describe.skip;

interface Listener {
  protocol: 'tcp' | 'udp';
  address: string;
  port: number;
}

/** Loopback as /proc/net writes it: 127.0.0.1, and the same as an IPv4-mapped IPv6 address, and ::1. */
const LOOPBACK = new Set(['0100007F', '0000000000000000FFFF00000100007F', '00000000000000000000000001000000']);

/** The pids of this process and every descendant. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Socket inodes the processes hold open. */
function socketInodes(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return inodes;
}

/** The listening TCP sockets and bound UDP sockets among the given inodes. */
function listeners(inodes: Set<string>): Listener[] {
  const found: Listener[] = [];
  for (const [file, protocol, state] of [['tcp', 'tcp', '0A'], ['tcp6', 'tcp', '0A'], ['udp', 'udp', '07'], ['udp6', 'udp', '07']] as const) {
    const lines = fs.readFileSync(`/proc/net/${file}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      const [address, port] = f[1].split(':');
      if (f[3] === state && inodes.has(f[9])) found.push({ protocol, address, port: parseInt(port, 16) });
    }
  }
  return found;
}

onLinux('the local cloud listens on loopback only', () => {
  let cloud: LocalCloud;
  let dataDir: string;
  const ports = { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-loopback-'));
    for (const name of Object.keys(ports) as (keyof typeof ports)[]) ports[name] = await freePort();
    cloud = await startLocalCloud({ dataDir, persist: false, ports, workers: false, quickStart: true });
  }, 180_000);

  afterAll(async () => {
    await cloud?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('every listening socket of the cloud and its emulators is bound to 127.0.0.1', () => {
    const found = listeners(socketInodes(processTree(process.pid)));
    const tcpPorts = new Set(found.filter((l) => l.protocol === 'tcp').map((l) => l.port));
    // The API, DynamoDB Local (its JVM), SQS, SES and S3 are among them, and the DNS server (UDP).
    for (const port of Object.values(ports)) expect(tcpPorts).toContain(port);
    expect(found.some((l) => l.protocol === 'udp')).toBe(true);
    expect(found.filter((l) => !LOOPBACK.has(l.address))).toEqual([]);
  });
});

describe("DynamoDB Local's loopback launcher", () => {
  test("takes DynamoDB Local's own arguments, its jar started through the launcher", () => {
    const args = loopbackArgs(['-Djava.library.path=lib/DynamoDBLocal_lib', '-jar', 'lib/DynamoDBLocal.jar', '-port', '8000', '-sharedDb']);
    expect(args.slice(0, 2)).toEqual(['-Djava.library.path=lib/DynamoDBLocal_lib', '-cp']);
    expect(args[2].split(path.delimiter)).toEqual(['lib/DynamoDBLocal.jar', path.join('lib', 'DynamoDBLocal_lib', '*')]);
    expect(args[3]).toMatch(/DynamoDbLoopback\.java$/);
    expect(fs.existsSync(args[3])).toBe(true);
    expect(args.slice(4)).toEqual(['-port', '8000', '-sharedDb', '-disableTelemetry']);
  });

  test('turns telemetry off once', () => {
    const args = loopbackArgs(['-jar', 'DynamoDBLocal.jar', '-disableTelemetry']);
    expect(args.filter((a) => a === '-disableTelemetry')).toHaveLength(1);
  });
});
