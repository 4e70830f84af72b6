import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalTrackingEdge } from '../../../local/tracking-edge';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the local tracking edge', () => {
  test('creates the tenant with its certificate pending, then serves the domain at the next check', async () => {
    const edge = new LocalTrackingEdge(path.join(dir, 'edge.json'));
    await expect(edge.serve('track.example.com')).resolves.toMatchObject({ status: 'provisioning', detail: expect.stringContaining('pending-validation') });
    await expect(edge.serve('track.example.com')).resolves.toEqual({ status: 'active' });
    await expect(edge.serve('TRACK.example.com')).resolves.toEqual({ status: 'active' });
  });

  test('keeps its tenants across restarts, as the local cloud keeps its data', async () => {
    const file = path.join(dir, 'edge.json');
    await new LocalTrackingEdge(file).serve('track.example.com');
    await expect(new LocalTrackingEdge(file).serve('track.example.com')).resolves.toEqual({ status: 'active' });
  });

  test('a domain under a fail. name fails certificate validation', async () => {
    const edge = new LocalTrackingEdge(path.join(dir, 'edge.json'));
    await edge.serve('track.fail.example.com');
    await expect(edge.serve('track.fail.example.com')).resolves.toEqual({ status: 'failed', detail: 'certificate validation-timed-out' });
  });
});
