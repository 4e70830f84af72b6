/** Polls `check` until it answers something other than undefined, and answers that; throws "Never: <what>" after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, { timeoutMs = 15_000, everyMs = 150 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
