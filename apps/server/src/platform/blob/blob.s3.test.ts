/**
 * The S3 blob store against a real S3-compatible server in-process (`s3rver`, a fake S3 on a
 * local port): the product started with S3_* pointing at it keeps voicemail recordings and MMS
 * media in the bucket (not in DATA_DIR) and still serves them at `${PUBLIC_URL}/files/{key}`
 * to the owning company's users, with byte ranges.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { XMLParser } from 'fast-xml-parser';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { loadConfig } from '../config.js';
import { S3BlobStore } from '../blob.js';

const BUCKET = 'switchboard-test';
let s3dir: string;
let s3server: S3rver;
let endpoint: string;
let s: TestServer;
let owner: Account;
let admin: S3Client;
/** fetch with the owner's session cookie (files are served to the owning company's users). */
const own = (url: string, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    headers: { cookie: `switchboard_session=${owner.client.cookie('switchboard_session')}`, ...(init.headers as Record<string, string> | undefined) },
  });

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false });
const twiml = (body: string) => (xml.parse(body).Response ?? {}) as Record<string, any>;
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Buys a sandbox number through the API (platform/ tests import no module code). */
async function buyTestNumber(account: Account, areaCode: string): Promise<{ id: number; number: string }> {
  const search = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}`);
  expect(search.status, JSON.stringify(search.body)).toBe(200);
  const pick = search.body.data[0];
  const bought = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  return { id: bought.body.id, number: bought.body.number };
}

/** Keys in the bucket under `prefix`, read with a separate S3 client. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const r = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (r.Contents ?? []).map((o) => o.Key!);
}
async function bucketObject(key: string): Promise<Buffer> {
  const r = await admin.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await r.Body!.transformToByteArray());
}
/** Files written under DATA_DIR/blobs (must stay empty with S3 configured). */
function localBlobFiles(): string[] {
  const dir = path.join(s.ctx.config.dataDir, 'blobs');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
}

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
  const addr = await s3server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
  // The same S3_* variables an operator sets (s3rver's fixed credentials).
  const { s3 } = loadConfig({ S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
  admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  s = await startTestServer({ s3 });
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
  admin?.destroy();
  await s3server?.close();
  if (s3dir) fs.rmSync(s3dir, { recursive: true, force: true });
});

describe('S3 blob store (S3_BUCKET set)', () => {
  it('is chosen from the configuration', () => {
    expect(s.ctx.blobs).toBeInstanceOf(S3BlobStore);
    expect(s.ctx.blobs.kind).toBe('s3');
  });

  it('put / get / stat / delete go to the bucket', async () => {
    await s.ctx.blobs.put('tmp/hello.txt', Buffer.from('hello bucket'));
    expect((await bucketObject('tmp/hello.txt')).toString()).toBe('hello bucket');
    expect((await s.ctx.blobs.get('tmp/hello.txt'))!.toString()).toBe('hello bucket');
    expect(await s.ctx.blobs.stat('tmp/hello.txt')).toMatchObject({ size: 12 });
    expect(await s.ctx.blobs.get('tmp/missing.txt')).toBeNull();
    await s.ctx.blobs.delete('tmp/hello.txt');
    await s.ctx.blobs.delete('tmp/hello.txt');
    expect(await bucketKeys('tmp/')).toEqual([]);
    expect(await s.ctx.blobs.get('tmp/hello.txt')).toBeNull();
    await expect(s.ctx.blobs.put('../escape.txt', Buffer.from('x'))).rejects.toThrow(/invalid blob key/);
  });

  it('putFile streams a local file into the bucket (exports)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-putfile-'));
    const file = path.join(dir, 'export.csv');
    fs.writeFileSync(file, 'a,b\r\n'.repeat(50_000));
    try {
      await s.ctx.blobs.putFile('tmp/export.csv', file);
      expect((await bucketObject('tmp/export.csv')).toString()).toBe('a,b\r\n'.repeat(50_000));
      await expect(s.ctx.blobs.putFile('../escape.csv', file)).rejects.toThrow(/invalid blob key/);
      await s.ctx.blobs.delete('tmp/export.csv');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a voicemail recording is copied into the bucket and served at /files/ with ranges; deleting the voicemail removes it', async () => {
    const n = await buyTestNumber(owner, '415');
    const put = await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ voicemail_enabled: true, forwards: [{ number: '6465550101' }] }] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const callSid = 'CA' + crypto.randomBytes(16).toString('hex');
    const start = await postWebhook(s, '/webhooks/twilio/voice', {
      CallSid: callSid,
      AccountSid: s.ctx.config.twilioAccountSid,
      From: '+13125550142',
      To: n.number,
      CallStatus: 'ringing',
      Direction: 'inbound',
    });
    const dial = twiml(start.body).Dial;
    const rec = twiml((await postWebhook(s, pathOf(dial.action), { CallSid: callSid, DialCallStatus: 'no-answer' })).body).Record;
    expect(rec).toBeDefined();

    // The carrier's copy (the sandbox keeps it in the blob store too, so it is fetched from /files/ on S3 through a signed URL).
    const wav = Buffer.concat([Buffer.from('RIFF'), crypto.randomBytes(4092)]);
    await s.ctx.blobs.put('sandbox/recordings/REs3.wav', wav);
    await postWebhook(s, pathOf(rec.action), {
      CallSid: callSid,
      RecordingUrl: s.ctx.blobs.signedUrl('sandbox/recordings/REs3.wav', 60_000),
      RecordingDuration: '5',
      RecordingSid: 'REs3',
    });

    const vm = await eventually(async () => {
      const r = await owner.client.get(`/api/voicemails?company_id=${owner.companyId}`);
      const item = r.body.data?.[0];
      return item?.recording_url.includes(`/files/c/${owner.companyId}/recordings/`) ? (item as { id: number; recording_url: string }) : undefined;
    });
    const key = s.ctx.blobs.derivedKey(owner.companyId, 'recordings', String(vm.id), '.wav');
    expect(key).toMatch(new RegExp(`^c/${owner.companyId}/recordings/${vm.id}-[0-9a-f]{32}\\.wav$`));
    expect(vm.recording_url).toBe(`${s.ctx.config.publicUrl}/files/${key}`);
    expect(await bucketKeys(`c/${owner.companyId}/recordings/`)).toEqual([key]);
    expect((await bucketObject(key)).equals(wav)).toBe(true);

    expect((await fetch(vm.recording_url)).status).toBe(401);
    const full = await own(vm.recording_url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('audio/wav');
    expect(full.headers.get('content-length')).toBe('4096');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await full.arrayBuffer()).equals(wav)).toBe(true);

    const part = await own(vm.recording_url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/4096');
    expect(part.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(wav.subarray(1000, 2000))).toBe(true);
    expect((await own(vm.recording_url, { headers: { range: 'bytes=5000-' } })).status).toBe(416);

    expect((await owner.client.delete(`/api/voicemails/${vm.id}`)).status).toBe(200);
    expect(await bucketKeys(`c/${owner.companyId}/recordings/`)).toEqual([]);
    const gone = await own(vm.recording_url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: 'File not found.' });
  });

  it('MMS media sent through the API lands in the bucket and is served at its /files/ URL', async () => {
    const n = await buyTestNumber(owner, '212');
    const form = new FormData();
    form.set('company_id', String(owner.companyId));
    form.set('number_id', String(n.id));
    form.set('to', '+13125551234');
    form.set('content', 'Here is the map');
    form.append('media[]', new Blob([Buffer.from('jpeg-bytes-on-s3')], { type: 'image/jpeg' }), 'map.jpg');
    const r = await owner.client.post('/api/message', form);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const url: string = r.body.details.media[0].url;
    const key = url.slice(`${s.ctx.config.publicUrl}/files/`.length);
    expect(key).toMatch(new RegExp(`^c/${owner.companyId}/mms/[0-9a-f]{32}-map\\.jpg$`));
    expect(await bucketKeys(`c/${owner.companyId}/mms/`)).toContain(key);
    expect((await bucketObject(key)).toString()).toBe('jpeg-bytes-on-s3');
    const res = await own(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await res.text()).toBe('jpeg-bytes-on-s3');
  });

  it('a contact import reads its file back from the bucket (through a released local copy)', async () => {
    // This process's copies only (the prefix carries the pid): other test files run at the same time.
    const tempCopies = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith(`switchboard-blob-${process.pid}-`)).length;
    const before = tempCopies();
    const f = new FormData();
    f.append('file', new Blob(['Name,Phone\nAda S3,2125550377\nBob S3,2125550378\n'], { type: 'text/csv' }), 'people.csv');
    const r = await owner.client.request('POST', `/api/companies/${owner.companyId}/contacts/import`, f);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(await bucketKeys(`imports/contacts/${owner.companyId}/`)).toEqual([`imports/contacts/${owner.companyId}/${r.body.batchId}.csv`]);
    const done = await eventually(async () => {
      const p = await owner.client.get(`/api/companies/${owner.companyId}/contacts/progress/${r.body.batchId}`);
      return p.body.finishedAt ? p.body : null;
    }, 15_000);
    expect(done).toMatchObject({ status: 'finished', inserted: 2, error: null });
    // The local copy is released once the job is done (it may trail the batch's status by a moment).
    await eventually(async () => tempCopies() === before, 5_000);
    expect(tempCopies()).toBe(before);
  });

  it('keeps nothing in DATA_DIR/blobs and serves nothing outside the bucket keys', async () => {
    expect(localBlobFiles()).toEqual([]);
    expect((await fetch(`${s.url}/files/%2e%2e%2fetc%2fpasswd`)).status).toBe(404);
    expect((await own(`${s.url}/files/c/${owner.companyId}/recordings/nope.wav`)).status).toBe(404);
  });
});
