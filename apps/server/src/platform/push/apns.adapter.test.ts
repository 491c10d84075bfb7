/**
 * The REAL APNs adapter (`@parse/node-apn`, token authentication over HTTP/2) against a local
 * HTTP/2 stand-in for Apple's service (self-signed TLS): a VoIP push to topic `<bundle>.voip` with
 * an ES256 provider token; 200 = sent, 410 `Unregistered` = gone, 400 `BadDeviceToken` = gone,
 * 500 = failed.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsAdapter } from './apns.adapter.js';
import type { PushMessage } from './push.port.js';

type Seen = { path: string; headers: http2.IncomingHttpHeaders; body: string };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apns-test-'));
let server: http2.Http2SecureServer;
let port = 0;
let cert = '';
const seen: Seen[] = [];
const answers: Record<string, { status: number; reason?: string }> = {};
const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const keyFile = path.join(dir, 'AuthKey_TEST.p8');

beforeAll(async () => {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  server = http2.createSecureServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert });
  server.on('stream', (stream, headers) => {
    let body = '';
    stream.on('data', (c: Buffer) => (body += c.toString()));
    stream.on('end', () => {
      const p = String(headers[':path']);
      seen.push({ path: p, headers, body });
      const a = answers[p.split('/').pop()!] ?? { status: 200 };
      stream.respond({ ':status': a.status, 'apns-id': crypto.randomUUID() });
      stream.end(a.reason ? JSON.stringify({ reason: a.reason, ...(a.status === 410 ? { timestamp: Date.now() } : {}) }) : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const call: PushMessage = {
  kind: 'call',
  title: 'Incoming call from (312) 555-0177',
  body: 'To Front desk',
  url: '/calls/7',
  tag: 'call:7',
  ttlS: 20,
  urgency: 'high',
  data: { callId: 7, companyId: 3 },
};

describe('APNs adapter', () => {
  it('sends a VoIP push with a provider token; maps 410/400 device answers to gone and 500 to failed', async () => {
    const ok = 'a'.repeat(64);
    const unregistered = 'b'.repeat(64);
    const bad = 'c'.repeat(64);
    const broken = 'd'.repeat(64);
    answers[unregistered] = { status: 410, reason: 'Unregistered' };
    answers[bad] = { status: 400, reason: 'BadDeviceToken' };
    answers[broken] = { status: 500, reason: 'InternalServerError' };
    const { adapter, close } = apnsAdapter(
      { keyFile, keyId: 'KEY1234567', teamId: 'TEAM123456', bundleId: 'com.example.switchboard', production: false },
      { address: 'localhost', port, ca: [cert] },
    );
    try {
      expect(await adapter.send(ok, call)).toEqual({ outcome: 'sent', statusCode: 200, error: null });
      expect(await adapter.send(unregistered, call)).toEqual({ outcome: 'gone', statusCode: 410, error: 'Unregistered' });
      expect(await adapter.send(bad, call)).toEqual({ outcome: 'gone', statusCode: 400, error: 'BadDeviceToken' });
      expect(await adapter.send(broken, call)).toMatchObject({ outcome: 'failed', statusCode: 500, error: expect.stringContaining('500') });
    } finally {
      await close();
    }
    const first = seen.find((s) => s.path === `/3/device/${ok}`)!;
    expect(first.headers[':method']).toBe('POST');
    expect(first.headers['apns-topic']).toBe('com.example.switchboard.voip');
    expect(first.headers['apns-push-type']).toBe('voip');
    expect(first.headers['apns-priority']).toBe('10');
    expect(Number(first.headers['apns-expiration'])).toBeGreaterThan(Date.now() / 1000);
    const jwt = String(first.headers.authorization).replace(/^bearer /, '');
    const [h, p, sig] = jwt.split('.');
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toMatchObject({ alg: 'ES256', kid: 'KEY1234567' });
    expect(JSON.parse(Buffer.from(p!, 'base64url').toString())).toMatchObject({ iss: 'TEAM123456' });
    expect(crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig!, 'base64url'))).toBe(true);
    expect(JSON.parse(first.body)).toMatchObject({ kind: 'call', title: 'Incoming call from (312) 555-0177', url: '/calls/7', callId: 7, companyId: 3 });
  });

  it('cannot be built from a key file that does not exist (the port then leaves VoIP off)', () => {
    expect(() => apnsAdapter({ keyFile: path.join(dir, 'missing.p8'), keyId: 'K', teamId: 'T', bundleId: 'b', production: false })).toThrow(/key/i);
  });
});
