/**
 * Blob store on an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …) through the official
 * `@aws-sdk/client-s3`. Chosen when `S3_BUCKET` is set (config.ts). Objects are stored under the
 * blob key itself; the app still serves them at `${PUBLIC_URL}/files/{key}` (serve.ts), so the
 * bucket can stay private.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { BlobAccess } from './access.js';
import { contentTypeFor, InvalidBlobKeyError, isValidBlobKey, type BlobInfo, type BlobRange, type BlobStore, type LocalBlobFile } from './types.js';

/** True for the SDK's "no such object" errors (404 on HEAD has no body, hence `NotFound`). */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore extends BlobAccess implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(config: S3Config, publicUrl: string) {
    super(publicUrl);
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      // Many S3-compatible services reject the SDK's default CRC32 request checksums and
      // response checksum modes: only send them when an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private check(key: string): void {
    if (!isValidBlobKey(key)) throw new InvalidBlobKeyError(key);
  }

  async put(key: string, data: Buffer | Uint8Array): Promise<void> {
    this.check(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.byteLength, ContentType: contentTypeFor(key) }),
    );
  }

  async putFile(key: string, file: string): Promise<void> {
    this.check(key);
    const { size } = await fsp.stat(file);
    // A file stream with its known length: the SDK sends it as it reads (one PUT, up to S3's 5 GB).
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size, ContentType: contentTypeFor(key) }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isValidBlobKey(key)) return null;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    this.check(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    if (!isValidBlobKey(key)) return null;
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, ...(res.LastModified ? { lastModified: res.LastModified } : {}), ...(res.ETag ? { etag: res.ETag } : {}) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async stream(key: string, range?: BlobRange): Promise<Readable | null> {
    if (!isValidBlobKey(key)) return null;
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      // In Node the SDK's body is an http.IncomingMessage (a Readable).
      return (res.Body as Readable | undefined) ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async localFile(key: string): Promise<LocalBlobFile> {
    this.check(key);
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `switchboard-blob-${process.pid}-`));
    const file = path.join(dir, path.basename(key));
    const release = () => fsp.rm(dir, { recursive: true, force: true });
    try {
      const body = await this.stream(key);
      if (body) await pipeline(body, fs.createWriteStream(file));
    } catch (err) {
      await release();
      throw err;
    }
    return { path: file, release };
  }

  close(): void {
    this.client.destroy();
  }
}
