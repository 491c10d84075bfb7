/**
 * Blob store on a local folder (default `${DATA_DIR}/blobs`): one file per key. Keys are checked
 * with `isValidBlobKey` and resolved inside the folder, so no key reaches outside it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isErrno } from '../errno.js';
import { BlobAccess } from './access.js';
import { InvalidBlobKeyError, isValidBlobKey, type BlobInfo, type BlobRange, type BlobStore, type LocalBlobFile } from './types.js';

/** What a missing blob looks like on disk: no such file, or a path through or at a folder. */
const MISSING = ['ENOENT', 'ENOTDIR', 'EISDIR'];

export class LocalBlobStore extends BlobAccess implements BlobStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  /** `root` is created when missing. */
  constructor(root: string, publicUrl: string) {
    super(publicUrl);
    this.root = path.resolve(root);
    fs.mkdirSync(this.root, { recursive: true });
  }

  /** Absolute path of `key` inside the root, or null for an invalid key. */
  private resolve(key: string): string | null {
    if (!isValidBlobKey(key)) return null;
    const p = path.resolve(this.root, key);
    return p.startsWith(this.root + path.sep) ? p : null;
  }
  private resolveOrThrow(key: string): string {
    const p = this.resolve(key);
    if (!p) throw new InvalidBlobKeyError(key);
    return p;
  }

  async put(key: string, data: Buffer | Uint8Array): Promise<void> {
    const p = this.resolveOrThrow(key);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    // Write then rename so a concurrent reader never sees a half-written file.
    const tmp = `${p}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, p);
  }

  async putFile(key: string, file: string): Promise<void> {
    const p = this.resolveOrThrow(key);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    // Copied by the kernel (no bytes through the process), then renamed like `put`.
    const tmp = `${p}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    await fsp.copyFile(file, tmp);
    await fsp.rename(tmp, p);
  }

  async get(key: string): Promise<Buffer | null> {
    const p = this.resolve(key);
    if (!p) return null;
    try {
      return await fsp.readFile(p);
    } catch (error) {
      if (isErrno(error, ...MISSING)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.resolveOrThrow(key), { force: true });
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const p = this.resolve(key);
    if (!p) return null;
    try {
      const st = await fsp.stat(p);
      if (!st.isFile()) return null;
      return { size: st.size, lastModified: st.mtime, etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"` };
    } catch (error) {
      if (isErrno(error, ...MISSING)) return null;
      throw error;
    }
  }

  async stream(key: string, range?: BlobRange): Promise<Readable | null> {
    const p = this.resolve(key);
    if (!p) return null;
    // Open first so a missing file is a null, not a stream error after the headers went out.
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(p, 'r');
    } catch (error) {
      if (isErrno(error, ...MISSING)) return null;
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async localFile(key: string): Promise<LocalBlobFile> {
    return { path: this.resolveOrThrow(key), release: async () => {} };
  }

  close(): void {}

  /** The folder holding the blobs. */
  get directory(): string {
    return this.root;
  }
}
