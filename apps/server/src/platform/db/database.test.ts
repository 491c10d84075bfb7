/**
 * The embedded database's connection string (database.ts): over the Unix-domain socket in the cluster's folder when
 * its path fits, over TCP on loopback otherwise; `withDatabase` swaps only the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, withDatabase } from './database.js';

/** Where a fresh connection to `url` comes from: null over a Unix socket, the client's address over TCP. */
async function clientAddress(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ a: string | null }>('select inet_client_addr()::text as a')).rows[0]!.a;
  } finally {
    await c.end();
  }
}

describe('embedded database connection', () => {
  it('connects over the Unix socket in its folder, and over TCP when the path is too long for one', async () => {
    const short = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sock-'));
    const long = fs.mkdtempSync(path.join(os.tmpdir(), `sb-sock-${'x'.repeat(100)}-`));
    for (const [dir, expected] of [
      [short, null],
      [long, '127.0.0.1/32'],
    ] as const) {
      const db = await startEmbeddedPostgres(dir, false);
      try {
        expect(await clientAddress(db.url('postgres'))).toBe(expected);
        expect(new URL(withDatabase(db.url('postgres'), 'template1')).pathname).toBe('/template1');
        expect(await clientAddress(withDatabase(db.url('postgres'), 'template1'))).toBe(expected);
        // TCP on loopback stays open either way (tools, other processes).
        expect(await clientAddress(`postgres://postgres:postgres@127.0.0.1:${db.port}/postgres`)).toBe('127.0.0.1/32');
      } finally {
        await db.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
