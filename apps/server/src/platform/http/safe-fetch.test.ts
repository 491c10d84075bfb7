/**
 * The server-side download guard (safe-fetch.ts) against real sockets: loopback, private,
 * link-local (the metadata endpoint) and IPv6 loopback literals, a public-looking name that
 * resolves to loopback, a redirect from an allowed server to loopback, other schemes, the size
 * cap and the deadline.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFetchableUrl, FetchTimeoutError, isPublicAddress, ResponseTooLargeError, safeFetch, UnsafeUrlError } from './safe-fetch.js';

let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/ok') {
      res.setHeader('content-type', 'image/png; x=1');
      res.end('png-bytes');
      return;
    }
    if (u.pathname === '/to-loopback') {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${port}/ok`);
      res.end();
      return;
    }
    if (u.pathname === '/to-metadata') {
      res.statusCode = 301;
      res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
      res.end();
      return;
    }
    if (u.pathname === '/to-file') {
      res.statusCode = 302;
      res.setHeader('location', 'file:///etc/passwd');
      res.end();
      return;
    }
    if (u.pathname === '/hop') {
      res.statusCode = 307;
      res.setHeader('location', `/ok`);
      res.end();
      return;
    }
    if (u.pathname === '/loop') {
      res.statusCode = 302;
      res.setHeader('location', `/loop`);
      res.end();
      return;
    }
    if (u.pathname === '/to-auth') {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${port}/auth`);
      res.end();
      return;
    }
    if (u.pathname === '/auth') {
      res.end(req.headers.authorization ?? 'none');
      return;
    }
    if (u.pathname === '/big') {
      res.setHeader('content-length', String(2_000_000));
      res.end(Buffer.alloc(2_000_000));
      return;
    }
    if (u.pathname === '/big-chunked') {
      // No Content-Length: the cap must be enforced while streaming.
      let sent = 0;
      const tick = () => {
        if (sent >= 5_000_000 || res.destroyed) {
          res.end();
          return;
        }
        sent += 65_536;
        res.write(Buffer.alloc(65_536), tick);
      };
      tick();
      return;
    }
    if (u.pathname === '/slow') {
      res.write('a');
      setTimeout(() => res.end('b'), 5_000).unref();
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Tests' only way to reach their own loopback server: trust its host as written. */
const loopbackAllowed = { allowHosts: ['127.0.0.1'] };
/** The test server under a public-looking name, trusted by name only (its redirects are checked as usual). */
const allowedByName = {
  resolve: async (h: string) => (h === 'allowed.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []),
  allowHosts: ['allowed.test'],
};

describe('address classification', () => {
  it('accepts public unicast addresses only', () => {
    for (const ok of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '[2a00:1450:4007:80f::200e]']) expect(isPublicAddress(ok), ok).toBe(true);
    for (const bad of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '255.255.255.255',
      '240.0.0.1',
      '::1',
      '[::1]',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(bad), bad).toBe(false);
    }
  });

  it('refuses other schemes, credentials and literal non-public hosts before connecting', () => {
    for (const bad of [
      'data:text/plain,hello',
      'file:///etc/passwd',
      'ftp://example.com/x',
      'gopher://example.com',
      'javascript:alert(1)',
      'not a url',
      'http://127.0.0.1/',
      'http://10.1.2.3:1/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0/',
      'http://user:pw@example.com/',
    ]) {
      expect(() => assertFetchableUrl(bad), bad).toThrow(UnsafeUrlError);
    }
    expect(assertFetchableUrl('https://example.com/a.png').hostname).toBe('example.com');
  });
});

describe('safeFetch', () => {
  it('refuses loopback, 10.x, the metadata address and [::1] without connecting', async () => {
    const before = hits;
    for (const url of [
      `http://127.0.0.1:${port}/ok`,
      'http://10.0.0.5/x',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${port}/ok`,
      `http://localhost:${port}/ok`,
    ]) {
      await expect(safeFetch(url), url).rejects.toBeInstanceOf(UnsafeUrlError);
    }
    expect(hits).toBe(before);
  });

  it('refuses a public-looking name that resolves to loopback (checked at connect time)', async () => {
    const resolve = async (host: string) => (host === 'media.example.com' ? [{ address: '127.0.0.1', family: 4 as const }] : []);
    const before = hits;
    await expect(safeFetch(`http://media.example.com:${port}/ok`, { policy: { resolve } })).rejects.toBeInstanceOf(UnsafeUrlError);
    // One bad address among good ones is enough to refuse (the socket could pick it).
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '10.0.0.1', family: 4 as const },
    ];
    await expect(safeFetch(`http://media.example.com:${port}/ok`, { policy: { resolve: mixed } })).rejects.toBeInstanceOf(UnsafeUrlError);
    expect(hits).toBe(before);
  });

  it('fetches from an allowed server, with the content type and body', async () => {
    const r = await safeFetch(`http://127.0.0.1:${port}/ok`, { policy: loopbackAllowed });
    expect(r).toMatchObject({ status: 200, ok: true, contentType: 'image/png' });
    expect(r.body.toString()).toBe('png-bytes');
    // A name resolved by the (injected) resolver to an allowed address connects to it.
    const named = await safeFetch(`http://allowed.test:${port}/ok`, { policy: allowedByName });
    expect(named.body.toString()).toBe('png-bytes');
  });

  it('follows a redirect within the allowed server, and refuses one to loopback, the metadata address or file:', async () => {
    const ok = await safeFetch(`http://allowed.test:${port}/hop`, { policy: allowedByName });
    expect(ok.body.toString()).toBe('png-bytes');
    expect(ok.url).toBe(`http://allowed.test:${port}/ok`);

    const before = hits;
    await expect(safeFetch(`http://allowed.test:${port}/to-loopback`, { policy: allowedByName })).rejects.toThrow(/127\.0\.0\.1 is not public/);
    await expect(safeFetch(`http://allowed.test:${port}/to-metadata`, { policy: allowedByName })).rejects.toThrow(/169\.254\.169\.254 is not public/);
    await expect(safeFetch(`http://allowed.test:${port}/to-file`, { policy: allowedByName })).rejects.toThrow(/scheme file:/);
    expect(hits).toBe(before + 3); // only the redirecting answers: no hop reached the refused targets
    await expect(safeFetch(`http://allowed.test:${port}/loop`, { policy: allowedByName, maxRedirects: 3 })).rejects.toThrow(/more than 3 redirects/);
  });

  it('drops Authorization when a redirect leaves the first origin', async () => {
    const same = await safeFetch(`http://allowed.test:${port}/auth`, { policy: allowedByName, headers: { authorization: 'Basic x' } });
    expect(same.body.toString()).toBe('Basic x');
    const other = await safeFetch(`http://allowed.test:${port}/to-auth`, {
      policy: { ...allowedByName, allowHosts: ['allowed.test', '127.0.0.1'] },
      headers: { authorization: 'Basic x' },
    });
    expect(other.body.toString()).toBe('none');
  });

  it('aborts past the size cap, declared or streamed', async () => {
    await expect(safeFetch(`http://127.0.0.1:${port}/big`, { policy: loopbackAllowed, maxBytes: 1_000_000 })).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(safeFetch(`http://127.0.0.1:${port}/big-chunked`, { policy: loopbackAllowed, maxBytes: 1_000_000 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    const fits = await safeFetch(`http://127.0.0.1:${port}/big`, { policy: loopbackAllowed, maxBytes: 2_000_000 });
    expect(fits.body.length).toBe(2_000_000);
  });

  it('gives up at the deadline', async () => {
    const t0 = Date.now();
    await expect(safeFetch(`http://127.0.0.1:${port}/slow`, { policy: loopbackAllowed, timeoutMs: 300 })).rejects.toBeInstanceOf(FetchTimeoutError);
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});
