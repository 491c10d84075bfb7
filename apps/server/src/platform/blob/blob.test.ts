/**
 * Blob store units: key safety, content types, Range parsing, the local folder store and the
 * S3_* configuration.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { contentTypeFor, createBlobStore, InvalidBlobKeyError, isValidBlobKey, LocalBlobStore, S3BlobStore } from '../blob.js';
import { parseRange } from './serve.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-unit-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function text(stream: NodeJS.ReadableStream | null): Promise<string> {
  let out = '';
  for await (const c of stream!) out += c.toString();
  return out;
}

describe('keys, types, ranges', () => {
  it('accepts relative paths and rejects traversal, absolute paths, backslashes and control characters', () => {
    for (const ok of ['recordings/1/2.wav', 'a', 'mms/3/x-map.jpg', 'a/.hidden', 'a/b..c']) expect(isValidBlobKey(ok), ok).toBe(true);
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a/./b', 'a//b', 'a/', 'a\\..\\b', 'a\u0000b', 'a\nb', '..', 'x'.repeat(1025)]) {
      expect(isValidBlobKey(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('derives the Content-Type from the extension', () => {
    expect(contentTypeFor('recordings/1/2.wav')).toBe('audio/wav');
    expect(contentTypeFor('greetings/1/3.MP3')).toBe('audio/mpeg');
    expect(contentTypeFor('mms/1/a.jpeg')).toBe('image/jpeg');
    expect(contentTypeFor('exports/1/c.csv')).toBe('text/csv; charset=utf-8');
    expect(contentTypeFor('x/noext')).toBe('application/octet-stream');
    expect(contentTypeFor('x/.wav')).toBe('application/octet-stream');
  });

  it('parses single byte ranges and flags unsatisfiable ones', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-1', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});

describe('LocalBlobStore', () => {
  const store = new LocalBlobStore(path.join(tmp, 'blobs'), 'http://app.test');

  it('puts, reads, stats, streams (with a range), hands out a local file and deletes', async () => {
    await store.put('recordings/7/1.wav', Buffer.from('RIFF-0123456789'));
    expect((await store.get('recordings/7/1.wav'))!.toString()).toBe('RIFF-0123456789');
    expect(fs.readFileSync(path.join(tmp, 'blobs/recordings/7/1.wav'), 'utf8')).toBe('RIFF-0123456789');
    expect(await store.stat('recordings/7/1.wav')).toMatchObject({ size: 15 });
    expect(await text(await store.stream('recordings/7/1.wav', { start: 5, end: 8 }))).toBe('0123');
    expect(await text(await store.stream('recordings/7/1.wav'))).toBe('RIFF-0123456789');
    const local = await store.localFile('recordings/7/1.wav');
    expect(fs.readFileSync(local.path, 'utf8')).toBe('RIFF-0123456789');
    await local.release();
    await store.put('recordings/7/1.wav', Buffer.from('replaced'));
    expect((await store.get('recordings/7/1.wav'))!.toString()).toBe('replaced');
    await store.delete('recordings/7/1.wav');
    await store.delete('recordings/7/1.wav');
    expect(await store.get('recordings/7/1.wav')).toBeNull();
    expect(await store.stat('recordings/7/1.wav')).toBeNull();
    expect(await store.stream('recordings/7/1.wav')).toBeNull();
  });

  it('putFile copies a local file in (replacing the blob) and leaves the file', async () => {
    const file = path.join(tmp, 'export.csv');
    fs.writeFileSync(file, 'id,from\r\n1,+15551230000\r\n');
    await store.put('c/1/exports/e.csv', Buffer.from('old'));
    await store.putFile('c/1/exports/e.csv', file);
    expect((await store.get('c/1/exports/e.csv'))!.toString()).toBe('id,from\r\n1,+15551230000\r\n');
    expect(fs.existsSync(file)).toBe(true);
    await expect(store.putFile('../e.csv', file)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(fs.readdirSync(path.join(tmp, 'blobs/c/1/exports'))).toEqual(['e.csv']); // no temporary left
  });

  it('never leaves its folder', async () => {
    fs.writeFileSync(path.join(tmp, 'secret.txt'), 'secret');
    await expect(store.put('../secret.txt', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.delete('../secret.txt')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(await store.get('../secret.txt')).toBeNull();
    expect(await store.stat('/etc/passwd')).toBeNull();
    expect(await store.stream('a/../../secret.txt')).toBeNull();
    expect(fs.readFileSync(path.join(tmp, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await store.stat('recordings')).toBeNull(); // a folder is not a blob
  });

  it('builds /files URLs with encoded segments', () => {
    expect(store.url('recordings/7/1.wav')).toBe('http://app.test/files/recordings/7/1.wav');
    expect(store.url('campaigns/1/my file#1.pdf')).toBe('http://app.test/files/campaigns/1/my%20file%231.pdf');
  });
});

describe('S3 configuration', () => {
  it('is off without S3_BUCKET: the local folder under DATA_DIR', () => {
    const c = loadConfig({ DATA_DIR: tmp });
    expect(c.s3).toBeUndefined();
    const store = createBlobStore(c);
    expect(store).toBeInstanceOf(LocalBlobStore);
    expect((store as LocalBlobStore).directory).toBe(path.join(tmp, 'blobs'));
  });

  it('reads S3_* with the defaults (us-east-1; path style when an endpoint is given)', () => {
    expect(loadConfig({ S3_BUCKET: 'rec', S3_ENDPOINT: 'http://minio:9000/', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3).toEqual({
      bucket: 'rec',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    expect(loadConfig({ S3_BUCKET: 'rec', S3_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'rec',
      endpoint: undefined,
      region: 'eu-west-3',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'rec', S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', S3_FORCE_PATH_STYLE: 'false' }).s3!.forcePathStyle).toBe(false);
    const store = createBlobStore({ ...loadConfig({ S3_BUCKET: 'rec', S3_ENDPOINT: 'http://minio:9000' }), publicUrl: 'http://app.test' });
    expect(store).toBeInstanceOf(S3BlobStore);
    expect(store.url('recordings/1/2.wav')).toBe('http://app.test/files/recordings/1/2.wav');
    store.close();
  });

  it('rejects a bad endpoint and a key id without its secret', () => {
    expect(() => loadConfig({ S3_BUCKET: 'rec', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: 'rec', S3_ACCESS_KEY_ID: 'k' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ S3_BUCKET: 'rec', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });
});
