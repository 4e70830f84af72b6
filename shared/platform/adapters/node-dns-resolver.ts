import { Resolver } from 'node:dns/promises';
import type { DnsResolver } from '../core/ports';

/** Codes that mean "no such record" rather than a failed lookup. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

/** DNS port over node's resolver; `servers` (host or host:port) replaces the system's resolvers. */
export class NodeDnsResolver implements DnsResolver {
  private readonly resolver = new Resolver({ timeout: 3000, tries: 2 });

  constructor(servers?: string[]) {
    if (servers && servers.length > 0) this.resolver.setServers(servers);
  }

  async resolveTxt(name: string): Promise<string[]> {
    return this.absentAsEmpty(async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  async resolveMx(name: string): Promise<{ exchange: string; priority: number }[]> {
    return this.absentAsEmpty(() => this.resolver.resolveMx(name));
  }

  async resolveCname(name: string): Promise<string[]> {
    return this.absentAsEmpty(() => this.resolver.resolveCname(name));
  }

  async reverse(ip: string): Promise<string[]> {
    return this.absentAsEmpty(() => this.resolver.reverse(ip));
  }

  private async absentAsEmpty<T>(lookup: () => Promise<T[]>): Promise<T[]> {
    try {
      return await lookup();
    } catch (error) {
      if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  }
}
