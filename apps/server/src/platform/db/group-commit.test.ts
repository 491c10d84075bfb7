/** GroupCommit: batching by size and by time, per-item results, failure isolation, order, drain. */
import { describe, expect, it } from 'vitest';
import { GroupCommit, drainGroupCommits } from './group-commit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GroupCommit', () => {
  it('fails every item of a batch at once when no pool connection came in time (no rerun one by one)', async () => {
    let runs = 0;
    const g = new GroupCommit<number, number>({
      maxWaitMs: 0,
      maxItems: 10,
      run: async () => {
        runs++;
        throw new Error('timeout exceeded when trying to connect');
      },
    });
    const out = await Promise.allSettled([1, 2, 3].map((x) => g.submit(x)));
    expect(out.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(runs).toBe(1);
  });

  it('runs a full batch at once and answers each item with its own result', async () => {
    const batches: number[][] = [];
    const g = new GroupCommit<number, string>({
      maxWaitMs: 10_000,
      maxItems: 3,
      run: async (xs) => {
        batches.push(xs);
        return xs.map((x) => `r${x}`);
      },
    });
    const out = await Promise.all([1, 2, 3].map((x) => g.submit(x)));
    expect(out).toEqual(['r1', 'r2', 'r3']);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('waits at most maxWaitMs for companions, and items queued while a batch runs form the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const g = new GroupCommit<number, number>({
      maxWaitMs: 20,
      maxItems: 100,
      concurrency: 1,
      run: async (xs) => {
        batches.push(xs);
        if (batches.length === 1) await gate;
        return xs.map((x) => x * 2);
      },
    });
    const t0 = Date.now();
    const first = g.submit(1);
    await sleep(40);
    expect(batches).toEqual([[1]]); // started after ~20 ms alone
    const later = [g.submit(2), g.submit(3)];
    await sleep(40);
    expect(batches).toHaveLength(1); // the one slot is busy: 2 and 3 wait
    release();
    expect(await first).toBe(2);
    expect(await Promise.all(later)).toEqual([4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(20);
  });

  it('reruns a failed batch item by item so only the bad item fails', async () => {
    const batches: number[][] = [];
    const g = new GroupCommit<number, number>({
      maxWaitMs: 1,
      maxItems: 10,
      run: async (xs) => {
        batches.push(xs);
        if (xs.includes(13)) throw new Error('bad 13');
        return xs;
      },
    });
    const settled = await Promise.allSettled([1, 13, 2].map((x) => g.submit(x)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('bad 13');
    expect(batches).toEqual([[1, 13, 2], [1], [13], [2]]);
  });

  it('rejects when run answers the wrong number of results', async () => {
    const g = new GroupCommit<number, number>({ maxWaitMs: 1, maxItems: 10, run: async () => [] });
    await expect(g.submit(1)).rejects.toThrow(/0 results for 1 items/);
  });

  it('drainGroupCommits runs pending work of its owner at once and waits for it', async () => {
    const owner = {};
    const done: number[] = [];
    const g = new GroupCommit<number, void>({
      owner,
      maxWaitMs: 60_000,
      maxItems: 100,
      run: async (xs) => {
        await sleep(5);
        done.push(...xs);
        return xs.map(() => undefined);
      },
    });
    const p = Promise.all([g.submit(1), g.submit(2)]);
    expect(g.busy).toBe(2);
    const t0 = Date.now();
    await drainGroupCommits(owner);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(done).toEqual([1, 2]);
    expect(g.busy).toBe(0);
    await p;
    await drainGroupCommits({}); // an owner without batchers: nothing to do
  });
});
