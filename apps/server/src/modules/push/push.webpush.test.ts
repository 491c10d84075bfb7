/**
 * The REAL Web Push adapter (`PUSH_ADAPTER=live`, the `web-push` library's VAPID signature and
 * aes128gcm encryption) against local push-service stand-ins: one accepts (201), one answers 410
 * Gone. The accepted push carries a VAPID header signed for the beam token's key and a payload
 * the subscriber's private key decrypts (RFC 8291); the gone subscription is deleted.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';

type Received = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

let s: TestServer;
let a: Account;
let service: http.Server;
let base = '';
const received: Received[] = [];

beforeAll(async () => {
  service = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url?.startsWith('/gone')) res.writeHead(410).end('push subscription has unsubscribed or expired.');
      else if (req.url?.startsWith('/busy')) res.writeHead(503).end('try later');
      else res.writeHead(201).end();
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  s = await startTestServer({ push: { adapter: 'live', vapid: undefined, vapidSubject: 'mailto:ops@example.test', apns: undefined } });
  a = await createAccount(s);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await new Promise((r) => service?.close(r));
});

/** A browser-side key pair and auth secret, with the subscription JSON the browser would send. */
function browser(endpoint: string) {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } } };
}

const hmac = (key: Buffer, data: Buffer) => crypto.createHmac('sha256', key).update(data).digest();

/** Decrypts an aes128gcm Web Push body (RFC 8291 §3.4, RFC 8188) with the subscriber's keys. */
function decrypt(body: Buffer, ecdh: crypto.ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLen = body[20]!;
  const asPublic = body.subarray(21, 21 + idLen);
  const ciphertext = body.subarray(21 + idLen);
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(auth, ecdhSecret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 then zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  return plain.subarray(0, end).toString('utf8');
}

describe('Web Push adapter (live)', () => {
  it('posts an encrypted, VAPID-signed push; a 410 removes the subscription; a 503 is recorded as failed and kept', async () => {
    const key = (await a.client.get('/api/user/beam-token')).body.token as string;
    const ok = browser(`${base}/ok/1`);
    const gone = browser(`${base}/gone/1`);
    const busy = browser(`${base}/busy/1`);
    for (const b of [ok, gone, busy]) expect((await a.client.post('/api/user/push-subscriptions', b.json)).status).toBe(201);
    expect((await a.client.get('/api/user/push-subscriptions')).body.data).toHaveLength(3);

    expect((await a.client.post('/api/user/push-notifications/test')).status).toBe(202);
    const note = await eventually(async () => {
      const res = await a.client.get('/api/user/push-notifications');
      return res.body.data[0]?.deliveries.length === 3 ? res.body.data[0] : null;
    }, 15_000);
    const byOutcome = Object.fromEntries(note.deliveries.map((d: { outcome: string; status_code: number; adapter: string }) => [d.outcome, d]));
    expect(byOutcome.sent).toMatchObject({ adapter: 'web-push', status_code: 201, channel: 'web' });
    expect(byOutcome.gone).toMatchObject({ adapter: 'web-push', status_code: 410 });
    expect(byOutcome.failed).toMatchObject({ adapter: 'web-push', status_code: 503, error: 'try later' });

    const devices = (await a.client.get('/api/user/push-subscriptions')).body.data;
    expect(devices).toHaveLength(2);
    expect(await s.ctx.db.selectFrom('push_subscriptions').select('endpoint').where('endpoint', '=', gone.json.endpoint).execute()).toEqual([]);
    const kept = await s.ctx.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', a.userId).orderBy('id').execute();
    expect(kept.map((k) => k.endpoint)).toEqual([ok.json.endpoint, busy.json.endpoint]);
    expect(kept[0]!.last_success_at).not.toBeNull();
    expect(kept[1]!.last_failure_at).not.toBeNull();

    const req = received.find((r) => r.path === '/ok/1')!;
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers.ttl).toBe('3600');
    expect(req.headers.urgency).toBe('normal');
    const authz = String(req.headers.authorization);
    expect(authz).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=/);
    expect(authz.split('k=')[1]).toBe(key);
    const jwt = JSON.parse(Buffer.from(authz.slice('vapid t='.length).split('.')[1]!, 'base64url').toString());
    expect(jwt).toMatchObject({ aud: base, sub: 'mailto:ops@example.test' });
    const payload = JSON.parse(decrypt(req.body, ok.ecdh, ok.auth));
    expect(payload).toMatchObject({ kind: 'test', title: 'Switchboard', body: 'Notifications are on for this device.', url: '/' });
  }, 60_000);
});
