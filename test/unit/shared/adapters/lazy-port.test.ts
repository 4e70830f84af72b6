import { lazyPort } from '../../../../shared/platform/adapters/lazy-port';
import type { BlobStore } from '../../../../shared/platform/core/ports';

/** A port whose adapter loads on first use (shared/platform/adapters/lazy-port.ts). */
describe('lazyPort', () => {
  const memoryStore = (): BlobStore => {
    const items = new Map<string, Buffer>();
    return { put: async (key, body) => void items.set(key, body), get: async (key) => items.get(key) ?? Buffer.alloc(0) };
  };

  it('loads nothing until a method is called, then loads once', async () => {
    const load = jest.fn(async () => memoryStore());
    const port = lazyPort(load, { put: true, get: true });
    expect(load).not.toHaveBeenCalled();
    await port.put('a', Buffer.from('1'));
    expect((await port.get('a')).toString()).toBe('1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('passes the adapter\'s errors through', async () => {
    const port = lazyPort<BlobStore>(async () => ({ put: async () => undefined, get: async (key) => Promise.reject(new Error(`no ${key}`)) }), { put: true, get: true });
    await expect(port.get('x')).rejects.toThrow('no x');
  });

  it('tries the load again after a failed one', async () => {
    const load = jest.fn<Promise<BlobStore>, []>().mockRejectedValueOnce(new Error('module missing')).mockImplementation(async () => memoryStore());
    const port = lazyPort(load, { put: true, get: true });
    await expect(port.put('a', Buffer.from('1'))).rejects.toThrow('module missing');
    await expect(port.put('a', Buffer.from('1'))).resolves.toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
