import { machineLoad, partSeconds, timed } from '../../../bench/wall-time';

describe('each part of a bench run is timed (bench/wall-time.ts)', () => {
  beforeEach(() => jest.spyOn(console, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('returns the part\'s result, prints its wall time and keeps it for bench/results.json', async () => {
    const result = await timed('a part', () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 250)));
    expect(result).toBe('done');
    expect(partSeconds()['a part']).toBeGreaterThanOrEqual(0.2);
    expect(console.log).toHaveBeenCalledWith(`[bench] a part: ${partSeconds()['a part']} s`);
  });

  it('keeps the time of a part that fails, and the failure', async () => {
    await expect(timed('a failing part', async () => Promise.reject(new Error('lost a mail')))).rejects.toThrow('lost a mail');
    expect(partSeconds()).toHaveProperty(['a failing part']);
  });

  it('records the machine\'s load beside the times: three averages and the cores', () => {
    const { load_average, cores } = machineLoad();
    expect(load_average).toHaveLength(3);
    expect(cores).toBeGreaterThan(0);
  });
});
