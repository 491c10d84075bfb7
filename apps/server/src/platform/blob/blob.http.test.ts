/**
 * `/files/{key}` through the real server on the default local blob store: Content-Type by
 * extension, Content-Length, byte ranges for audio seeking (206/416), HEAD, conditional GET,
 * 404 in the error shape, and no path traversal out of the blob folder.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { LocalBlobStore } from '../blob.js';

let s: TestServer;
const audio = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/** A GET with the path sent byte for byte (fetch would normalise `..`). */
function rawGet(server: TestServer, rawPath: string): Promise<{ status: number; body: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  s = await startTestServer();
  await s.ctx.blobs.put('recordings/1/42.wav', audio);
});
afterAll(async () => { await s?.close(); });

describe('GET /files/* on the local store', () => {
  it('uses the local folder under DATA_DIR by default', () => {
    expect(s.ctx.blobs).toBeInstanceOf(LocalBlobStore);
    expect(fs.existsSync(path.join(s.ctx.config.dataDir, 'blobs/recordings/1/42.wav'))).toBe(true);
  });

  it('serves the whole blob with its type, length and Accept-Ranges', async () => {
    const url = s.ctx.blobs.url('recordings/1/42.wav');
    expect(url).toBe(`${s.ctx.config.publicUrl}/files/recordings/1/42.wav`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(audio)).toBe(true);
  });

  it('answers a byte range with 206 and Content-Range (audio seeking)', async () => {
    const res = await fetch(`${s.url}/files/recordings/1/42.wav`, { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await res.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);

    const tail = await fetch(`${s.url}/files/recordings/1/42.wav`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(audio.subarray(990))).toBe(true);

    const open = await fetch(`${s.url}/files/recordings/1/42.wav`, { headers: { range: 'bytes=998-' } });
    expect(open.status).toBe(206);
    expect([...Buffer.from(await open.arrayBuffer())]).toEqual([...audio.subarray(998)]);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const res = await fetch(`${s.url}/files/recordings/1/42.wav`, { headers: { range: 'bytes=1000-' } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers HEAD with the headers only, and 304 for a matching If-None-Match', async () => {
    const head = await fetch(`${s.url}/files/recordings/1/42.wav`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.headers.get('content-type')).toBe('audio/wav');
    const etag = head.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${s.url}/files/recordings/1/42.wav`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('answers 404 in the error shape for a missing blob, also right after a delete', async () => {
    const res = await fetch(`${s.url}/files/recordings/1/missing.wav`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'File not found.' });
    await s.ctx.blobs.put('tmp/gone.txt', Buffer.from('bye'));
    expect(await (await fetch(s.ctx.blobs.url('tmp/gone.txt'))).text()).toBe('bye');
    await s.ctx.blobs.delete('tmp/gone.txt');
    expect((await fetch(s.ctx.blobs.url('tmp/gone.txt'))).status).toBe(404);
    expect((await fetch(`${s.url}/files/recordings`)).status).toBe(404);
  });

  it('serves keys with encoded characters', async () => {
    await s.ctx.blobs.put('campaigns/1/my file.pdf', Buffer.from('%PDF'));
    const res = await fetch(s.ctx.blobs.url('campaigns/1/my file.pdf'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await res.text()).toBe('%PDF');
  });

  it('never serves a file outside the blob folder', async () => {
    fs.writeFileSync(path.join(s.ctx.config.dataDir, 'secret.txt'), 'top-secret');
    for (const p of ['/files/../secret.txt', '/files/%2e%2e/secret.txt', '/files/..%2fsecret.txt', '/files/recordings/..%2f..%2fsecret.txt',
      '/files/%2e%2e%2f%2e%2e%2fpackage.json', '/files/..%5csecret.txt', '/files//etc/passwd', '/files/%2fetc%2fpasswd', '/files/a%00b']) {
      const r = await rawGet(s, p);
      expect(r.body, p).not.toContain('top-secret');
      expect(r.body, p).not.toContain('root:');
      expect(r.status, p).toBe(404);
    }
  });
});
