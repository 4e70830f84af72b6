/** True when a parsed JSON value nests objects or arrays more than `max` levels deep; iterative, so any depth is safe. */
export function nestedDeeperThan(root: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[root, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= max) return true;
    for (const v of Object.values(value)) pending.push([v, depth + 1]);
  }
  return false;
}
