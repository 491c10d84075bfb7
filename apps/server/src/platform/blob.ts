/**
 * Blob store for recordings and MMS media: a local folder (`${DATA_DIR}/blobs`) by default.
 * Keys are relative paths; `url(key)` is served by the app at `/files/{key}`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export class BlobStore {
  constructor(private readonly root: string, private readonly publicUrl: string) {}

  private resolve(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(path.resolve(this.root) + path.sep)) throw new Error('invalid blob key');
    return p;
  }
  /** Stores bytes under `key` (creating folders). */
  async put(key: string, data: Buffer | Uint8Array): Promise<void> {
    const p = this.resolve(key);
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, data);
  }
  /** Reads bytes, or null when missing. */
  async get(key: string): Promise<Buffer | null> {
    try { return await fs.readFile(this.resolve(key)); } catch { return null; }
  }
  /** Removes the blob under `key` (no error when missing). */
  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }
  /** Absolute URL where the blob is served. */
  url(key: string): string {
    return `${this.publicUrl}/files/${key}`;
  }
  get directory(): string { return this.root; }
}
