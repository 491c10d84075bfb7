/**
 * The DNS resolver port of the tenant module (docs/workspace.md "Checking DNS records"): custom-domain and e-mail
 * sender checks ask it for TXT and CNAME records. `SystemDnsResolver` asks the real DNS through `node:dns`;
 * `SandboxDnsResolver` answers from records it was told exist (the default with the sandbox carrier, and in tests),
 * so the product can be tried end to end without owning a domain.
 */
import { Resolver } from 'node:dns/promises';
import type { AppContext } from '../../context.js';
import { isErrno } from '../../platform/errno.js';

export type DnsRecordType = 'TXT' | 'CNAME';

export interface DnsResolverPort {
  /** The TXT strings at `name` (each record's chunks joined); [] when none. */
  txt(name: string): Promise<string[]>;
  /** The CNAME targets at `name`, lower case without the trailing dot; [] when none. */
  cname(name: string): Promise<string[]>;
}

const norm = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** DNS answers "no such record" with these codes: an empty answer, not a failure. */
const ABSENT = ['ENODATA', 'ENOTFOUND', 'ESERVFAIL', 'ENONAME', 'NXDOMAIN'];

function absent(error: unknown): boolean {
  return isErrno(error, ...ABSENT);
}

/** The real DNS (the server's resolvers), 5 s per query. */
export class SystemDnsResolver implements DnsResolverPort {
  private readonly resolver = new Resolver({ timeout: 5000, tries: 2 });

  async txt(name: string): Promise<string[]> {
    try {
      return (await this.resolver.resolveTxt(norm(name))).map((chunks) => chunks.join(''));
    } catch (error) {
      if (absent(error)) return [];
      throw error;
    }
  }

  async cname(name: string): Promise<string[]> {
    try {
      return (await this.resolver.resolveCname(norm(name))).map(norm);
    } catch (error) {
      if (absent(error)) return [];
      throw error;
    }
  }
}

/** Records kept in memory: what `publish` was told exists. */
export class SandboxDnsResolver implements DnsResolverPort {
  private readonly records = new Map<string, string[]>();

  /** Makes a record exist (added beside the others of its name and type). */
  publish(type: DnsRecordType, name: string, value: string): void {
    const key = `${type}:${norm(name)}`;
    const v = type === 'CNAME' ? norm(value) : value;
    const list = this.records.get(key) ?? [];
    if (!list.includes(v)) list.push(v);
    this.records.set(key, list);
  }

  /** Removes every record of that name and type. */
  remove(type: DnsRecordType, name: string): void {
    this.records.delete(`${type}:${norm(name)}`);
  }

  async txt(name: string): Promise<string[]> {
    return [...(this.records.get(`TXT:${norm(name)}`) ?? [])];
  }

  async cname(name: string): Promise<string[]> {
    return [...(this.records.get(`CNAME:${norm(name)}`) ?? [])];
  }
}

const resolvers = new WeakMap<AppContext, DnsResolverPort>();

/** The context's resolver: the one set with {@link setDnsResolver}, else the sandbox with the sandbox carrier, else the system DNS. */
export function dnsResolverOf(ctx: AppContext): DnsResolverPort {
  let r = resolvers.get(ctx);
  if (!r) {
    r = ctx.config.carrier === 'sandbox' ? new SandboxDnsResolver() : new SystemDnsResolver();
    resolvers.set(ctx, r);
  }
  return r;
}

/** Replaces the context's resolver (tests, or a deployment choosing the system DNS with the sandbox carrier). */
export function setDnsResolver(ctx: AppContext, resolver: DnsResolverPort): void {
  resolvers.set(ctx, resolver);
}
