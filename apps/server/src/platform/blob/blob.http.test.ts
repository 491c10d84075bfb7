/**
 * `/files/{key}` through the real server on the default local blob store: Content-Type by
 * extension, Content-Length, byte ranges for audio seeking (206/416), HEAD, conditional GET,
 * 404 in the error shape, no path traversal out of the blob folder, and who may read a file
 * (access.ts): the owning company's signed-in users, or anyone with a valid signed URL.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, startSecondNode, startTestServer, type TestServer } from '../../../test/harness.js';
import { LocalBlobStore, ownerOfKey } from '../blob.js';

let s: TestServer;
let owner: Account;
let stranger: Account;
let key: string;
const audio = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/** The session cookie of a signed-in account, as a browser sends it. */
const session = (a: Account) => ({ cookie: `switchboard_session=${a.client.cookie('switchboard_session')}` });
/** GET (or another method) of a /files URL with the owner's session. */
const own = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { ...session(owner), ...(init.headers as Record<string, string> | undefined) } });

/** A GET with the path sent byte for byte (fetch would normalise `..`). */
function rawGet(server: TestServer, rawPath: string): Promise<{ status: number; body: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
  stranger = await createAccount(s);
  key = s.ctx.blobs.newKey(owner.companyId, 'recordings', '.wav');
  await s.ctx.blobs.put(key, audio);
});
afterAll(async () => {
  await s?.close();
});

describe('GET /files/* on the local store', () => {
  it('uses the local folder under DATA_DIR by default', () => {
    expect(s.ctx.blobs).toBeInstanceOf(LocalBlobStore);
    expect(fs.existsSync(path.join(s.ctx.config.dataDir, 'blobs', key))).toBe(true);
  });

  it('serves the whole blob with its type, length and Accept-Ranges', async () => {
    const url = s.ctx.blobs.url(key);
    expect(url).toBe(`${s.ctx.config.publicUrl}/files/${key}`);
    const res = await own(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=0');
    expect(Buffer.from(await res.arrayBuffer()).equals(audio)).toBe(true);
  });

  it('answers a byte range with 206 and Content-Range (audio seeking)', async () => {
    const res = await own(`${s.url}/files/${key}`, { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await res.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);

    const tail = await own(`${s.url}/files/${key}`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(audio.subarray(990))).toBe(true);

    const open = await own(`${s.url}/files/${key}`, { headers: { range: 'bytes=998-' } });
    expect(open.status).toBe(206);
    expect([...Buffer.from(await open.arrayBuffer())]).toEqual([...audio.subarray(998)]);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const res = await own(`${s.url}/files/${key}`, { headers: { range: 'bytes=1000-' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers HEAD with the headers only, and 304 for a matching If-None-Match', async () => {
    const head = await own(`${s.url}/files/${key}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.headers.get('content-type')).toBe('audio/wav');
    const etag = head.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await own(`${s.url}/files/${key}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('answers 404 in the error shape for a missing blob, also right after a delete', async () => {
    const res = await own(`${s.url}/files/c/${owner.companyId}/recordings/missing.wav`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'File not found.' });
    const gone = `c/${owner.companyId}/tmp/gone.txt`;
    await s.ctx.blobs.put(gone, Buffer.from('bye'));
    expect(await (await own(s.ctx.blobs.url(gone))).text()).toBe('bye');
    await s.ctx.blobs.delete(gone);
    expect((await own(s.ctx.blobs.url(gone))).status).toBe(404);
    expect((await own(`${s.url}/files/recordings`)).status).toBe(404);
  });

  it('serves keys with encoded characters', async () => {
    await s.ctx.blobs.put(`campaigns/${owner.companyId}/my file.pdf`, Buffer.from('%PDF'));
    const res = await own(s.ctx.blobs.url(`campaigns/${owner.companyId}/my file.pdf`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await res.text()).toBe('%PDF');
  });

  it('never serves a file outside the blob folder', async () => {
    fs.writeFileSync(path.join(s.ctx.config.dataDir, 'secret.txt'), 'top-secret');
    for (const p of [
      '/files/../secret.txt',
      '/files/%2e%2e/secret.txt',
      '/files/..%2fsecret.txt',
      '/files/recordings/..%2f..%2fsecret.txt',
      '/files/%2e%2e%2f%2e%2e%2fpackage.json',
      '/files/..%5csecret.txt',
      '/files//etc/passwd',
      '/files/%2fetc%2fpasswd',
      '/files/a%00b',
    ]) {
      const r = await rawGet(s, p);
      expect(r.body, p).not.toContain('top-secret');
      expect(r.body, p).not.toContain('root:');
      // A NUL byte is refused by the input rules before routing (422); every other path is a 404.
      expect(r.status, p).toBe(p.includes('%00') ? 422 : 404);
    }
  });
});

describe('who may read /files/*', () => {
  it('names new keys by company with 128 random bits, and knows the owner of old keys', () => {
    expect(key).toMatch(new RegExp(`^c/${owner.companyId}/recordings/[0-9a-f]{32}\\.wav$`));
    expect(s.ctx.blobs.newKey(owner.companyId, 'recordings', '.wav')).not.toBe(key);
    const derived = s.ctx.blobs.derivedKey(owner.companyId, 'recordings', '42', '.wav');
    expect(derived).toMatch(new RegExp(`^c/${owner.companyId}/recordings/42-[0-9a-f]{32}\\.wav$`));
    expect(s.ctx.blobs.derivedKey(owner.companyId, 'recordings', '42', '.wav')).toBe(derived);
    expect(s.ctx.blobs.derivedKey(owner.companyId, 'recordings', '43', '.wav')).not.toBe(derived.replace('42-', '43-'));
    expect(ownerOfKey(key)).toBe(owner.companyId);
    expect(ownerOfKey('recordings/7/42.wav')).toBe(7);
    expect(ownerOfKey('mms/7/in-1-0.jpg')).toBe(7);
    expect(ownerOfKey('exports/contacts/7/x.csv')).toBe(7);
    expect(ownerOfKey('sandbox/recordings/RE1.wav')).toBeNull();
    expect(ownerOfKey('tmp/7/x')).toBeNull();
  });

  it('answers 401 without a session, 404 to another company, 200 with ranges to the owning company', async () => {
    const url = s.ctx.blobs.url(key);
    const anon = await fetch(url);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('cache-control')).toBe('no-store');
    expect(await anon.json()).toEqual({ message: 'Unauthenticated.' });
    expect((await fetch(url, { headers: { cookie: 'switchboard_session=not-a-session' } })).status).toBe(401);

    const other = await fetch(url, { headers: session(stranger) });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: 'File not found.' });

    const part = await own(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(10, 20))).toBe(true);
  });

  it('accepts a bearer token of the owning company', async () => {
    const t = await new ApiClient(s.url).post('/api/sanctum/createTokenSession', { email: owner.email, password: owner.password, device_name: 'files test' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const token = t.body.access_token as string;
    const r = await fetch(s.ctx.blobs.url(key), { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
  });

  it('keeps serving files stored under the old keys to their company only', async () => {
    const old = `recordings/${owner.companyId}/42.wav`;
    await s.ctx.blobs.put(old, audio);
    expect((await own(s.ctx.blobs.url(old))).status).toBe(200);
    expect((await fetch(s.ctx.blobs.url(old), { headers: session(stranger) })).status).toBe(404);
    expect((await fetch(s.ctx.blobs.url(old))).status).toBe(401);
    // A key naming no company is never served on a session alone.
    await s.ctx.blobs.put('sandbox/recordings/RE1.wav', audio);
    expect((await own(s.ctx.blobs.url('sandbox/recordings/RE1.wav'))).status).toBe(404);
  });

  it('serves a valid signed URL to anyone, with ranges; refuses an expired or tampered one', async () => {
    const signed = s.ctx.blobs.signedUrl(key, 60_000);
    expect(signed).toMatch(/\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    const full = await fetch(signed);
    expect(full.status).toBe(200);
    expect(Buffer.from(await full.arrayBuffer()).equals(audio)).toBe(true);
    const part = await fetch(signed, { headers: { range: 'bytes=-10' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(990))).toBe(true);

    const expired = s.ctx.blobs.signedUrl(key, 60_000, Date.now() - 120_000);
    const e = await fetch(expired);
    expect(e.status).toBe(403);
    expect(await e.json()).toEqual({ message: 'This link has expired.' });

    const u = new URL(signed);
    const sig = u.searchParams.get('signature')!;
    const tampered = [
      signed.replace(sig, (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)),
      signed.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 3600}`),
      `${s.ctx.blobs.url(`recordings/${owner.companyId}/42.wav`)}${u.search}`, // another key with this signature
      `${s.ctx.blobs.url(key)}?expires=${u.searchParams.get('expires')}`,
      `${s.ctx.blobs.url(key)}?expires=abc&signature=${sig}`,
    ];
    for (const t of tampered) {
      const r = await fetch(t);
      expect(r.status, t).toBe(403);
      expect(await r.json()).toEqual({ message: 'This link is invalid.' });
    }
    // A signed URL to a key with no company works (the sandbox's own recordings).
    expect((await fetch(s.ctx.blobs.signedUrl('sandbox/recordings/RE1.wav', 60_000))).status).toBe(200);
    // An expired link still opens for a signed-in user of the owning company, never for another.
    expect((await own(expired)).status).toBe(200);
    expect((await fetch(expired, { headers: session(stranger) })).status).toBe(404);
  });

  it('signs with one secret shared by every node, kept in the database when SECRET_KEY is unset', async () => {
    const rows = await sql<{ name: string; value: string }>`select name, value from app_secrets`.execute(s.ctx.db);
    expect(rows.rows.map((r) => r.name)).toEqual(['blob_signing']);
    expect(rows.rows[0]!.value.length).toBeGreaterThanOrEqual(40);
    const second = await startSecondNode(s);
    try {
      const signed = new URL(s.ctx.blobs.signedUrl(key, 60_000));
      const r = await fetch(`${second.url}${signed.pathname}${signed.search}`);
      expect(r.status).toBe(200);
      expect(second.ctx.blobs.derivedKey(owner.companyId, 'recordings', '42', '.wav')).toBe(
        s.ctx.blobs.derivedKey(owner.companyId, 'recordings', '42', '.wav'),
      );
    } finally {
      await second.close();
    }
  });

  it('uses SECRET_KEY when it is set', async () => {
    const other = await startTestServer({ secretKey: 'operator-chosen-secret-of-enough-length' });
    try {
      const store = new LocalBlobStore(path.join(other.ctx.config.dataDir, 'blobs'), other.ctx.config.publicUrl);
      store.setSecret('operator-chosen-secret-of-enough-length');
      expect(other.ctx.blobs.signedUrl('tmp/x', 60_000, 0)).toBe(store.signedUrl('tmp/x', 60_000, 0));
      expect((await sql`select 1 from app_secrets`.execute(other.ctx.db)).rows).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
