/**
 * The one guard for every server-side download of a URL that a person (or the sandbox
 * simulator) supplied: MMS media named in an inbound message, recordings named in a webhook.
 * Without it such a URL reaches the server's own loopback services (`/metrics`), the private
 * network or the cloud metadata endpoint (server-side request forgery; docs/operations.md
 * "Server-side downloads").
 *
 * Rules:
 * - `http:` and `https:` only (no `data:`, `file:`, `ftp:` …).
 * - Every address the host resolves to must be a public unicast address (ipaddr.js ranges): no
 *   loopback, private (RFC 1918, ULA fc00::/7), link-local (169.254/16 with the metadata
 *   endpoint, fe80::/10), carrier-grade NAT (100.64/10), 0.0.0.0/8, multicast, broadcast,
 *   reserved and documentation ranges, nor IPv6 forms that embed an IPv4 address (IPv4-mapped
 *   `::ffff:a.b.c.d`, NAT64, 6to4, Teredo). The check runs in the socket's DNS `lookup`, i.e. at
 *   connect time on the address actually dialled, so DNS rebinding between a check and the
 *   connection cannot bypass it; literal IP hosts (which skip `lookup`) are checked before.
 * - Redirects are followed by hand, at most `maxRedirects`, each hop checked again; an
 *   `Authorization` header is dropped when a redirect leaves the first origin.
 * - The body is streamed and the download aborted past `maxBytes`; the whole exchange (all hops
 *   and the body) has one deadline, `timeoutMs`.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Thrown when a URL or one of its redirects is not allowed (scheme or address). */
export class UnsafeUrlError extends Error {
  readonly code = 'UNSAFE_URL';
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}
/** Thrown when a body is larger than `maxBytes`. */
export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  constructor(maxBytes: number) {
    super(`response larger than ${maxBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}
/** Thrown when the exchange takes longer than `timeoutMs`. */
export class FetchTimeoutError extends Error {
  readonly code = 'FETCH_TIMEOUT';
  constructor(timeoutMs: number) {
    super(`download took longer than ${timeoutMs} ms`);
    this.name = 'FetchTimeoutError';
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Which addresses a download may reach. Production uses the defaults (the system resolver, only
 * public unicast addresses). Tests inject a resolver (a public-looking name that resolves to
 * 127.0.0.1) or trust the host name of their own loopback test server.
 */
export type AddressPolicy = {
  /** Resolves a host name to its addresses (default: `dns.lookup` with `all`). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * Host names (or IP literals, as written in the URL) whose addresses are not checked. Tests only:
   * a redirect from such a host to another non-public host is still refused.
   */
  allowHosts?: string[];
};

export type SafeFetchOptions = {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** Largest body accepted, in bytes (default 20 MiB). */
  maxBytes?: number;
  /** Deadline of the whole exchange (every hop and the body), in ms (default 15 000). */
  timeoutMs?: number;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Overrides the process-wide policy (see `setDefaultAddressPolicy`). */
  policy?: AddressPolicy;
};

export type SafeResponse = {
  status: number;
  ok: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The Content-Type header without parameters, or null. */
  contentType: string | null;
  body: Buffer;
};

export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

let defaultPolicy: AddressPolicy = {};

/**
 * Sets the policy used when a call passes none. For integration tests whose "outside" server
 * listens on loopback (e.g. `{allowHosts: ['127.0.0.1']}`); never set in production code.
 * @returns the previous policy, to restore.
 */
export function setDefaultAddressPolicy(policy: AddressPolicy): AddressPolicy {
  const previous = defaultPolicy;
  defaultPolicy = policy;
  return previous;
}

/**
 * True when `address` (an IPv4 or IPv6 literal, brackets allowed) is a public unicast address
 * (ipaddr.js range `unicast`). IPv4-mapped IPv6 addresses are judged as their IPv4 form; other
 * IPv6 forms embedding IPv4 (NAT64, 6to4, Teredo) are refused.
 */
export function isPublicAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(literal)) return false;
  const ip = ipaddr.process(literal); // ::ffff:a.b.c.d → a.b.c.d
  return ip.range() === 'unicast';
}

function trusted(host: string, policy: AddressPolicy): boolean {
  return (policy.allowHosts ?? []).some((h) => h.toLowerCase() === host.toLowerCase());
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const list = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return list.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** A `net` lookup function that resolves with the policy's resolver and refuses non-public answers. */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolve;
  return ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname)
      .then((all) => {
        if (all.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        const bad = trusted(hostname, policy) ? undefined : all.find((a) => !isPublicAddress(a.address));
        if (bad) throw new UnsafeUrlError(`${hostname} resolves to a non-public address (${bad.address})`);
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        if (options.all)
          callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, options.all ? [] : ''));
  }) as LookupFunction;
}

/**
 * Checks a URL before any connection: http(s) only, no credentials in it, and a literal IP host
 * must be public. Host names are checked when connecting (`guardedLookup`).
 * @throws UnsafeUrlError
 */
export function assertFetchableUrl(raw: string | URL, policy: AddressPolicy = defaultPolicy): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch (error) {
    if (error instanceof TypeError) throw new UnsafeUrlError('not a valid URL');
    throw error;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UnsafeUrlError(`scheme ${u.protocol} is not allowed`);
  if (u.username || u.password) throw new UnsafeUrlError('credentials in the URL are not allowed');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !isPublicAddress(host) && !trusted(host, policy)) throw new UnsafeUrlError(`address ${host} is not public`);
  return u;
}

/** One request/response on a fresh connection (no pooled socket can skip the lookup). */
function exchange(
  u: URL,
  o: { method: string; headers: Record<string, string>; lookup: LookupFunction; maxBytes: number; signal: AbortSignal },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(u, { method: o.method, headers: o.headers, lookup: o.lookup, agent: false, signal: o.signal }, (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) || o.method === 'HEAD') {
        res.resume();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > o.maxBytes) {
        req.destroy();
        reject(new ResponseTooLargeError(o.maxBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) {
          req.destroy();
          reject(new ResponseTooLargeError(o.maxBytes));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('connection closed before the body ended')));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Downloads `url` under the rules above.
 * @returns status, final URL, headers and the body (any status; check `ok`).
 * @throws UnsafeUrlError (scheme, address, or a redirect to either), ResponseTooLargeError,
 *   FetchTimeoutError, or a network error (ENOTFOUND, ECONNREFUSED…).
 */
export async function safeFetch(url: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const policy = options.policy ?? defaultPolicy;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const lookup = guardedLookup(policy);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchTimeoutError(timeoutMs)), timeoutMs);
  let method: string = options.method ?? 'GET';
  let headers = { ...(options.headers ?? {}) };
  let current = assertFetchableUrl(url, policy);
  const origin = current.origin;
  try {
    for (let hop = 0; ; hop++) {
      let r;
      try {
        r = await exchange(current, { method, headers, lookup, maxBytes, signal: controller.signal });
      } catch (e) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw e;
      }
      const location = r.headers.location;
      if (REDIRECTS.has(r.status) && location) {
        if (hop >= maxRedirects) throw new UnsafeUrlError(`more than ${maxRedirects} redirects`);
        const next = assertFetchableUrl(new URL(location, current), policy);
        if (next.origin !== origin) {
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie)$/i.test(k)));
        }
        if (r.status === 303) method = method === 'HEAD' ? 'HEAD' : 'GET';
        current = next;
        continue;
      }
      const type = r.headers['content-type'];
      return {
        status: r.status,
        ok: r.status >= 200 && r.status < 300,
        url: current.toString(),
        headers: r.headers,
        contentType: type ? type.split(';')[0]!.trim().toLowerCase() || null : null,
        body: r.body,
      };
    }
  } finally {
    clearTimeout(timer);
  }
}
