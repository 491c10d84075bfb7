/**
 * The hook registry (docs/architecture.md "Hooks"): each kind's semantics, the declared fallbacks, and the docs'
 * table naming every declared hook with its asker and kind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { HOOKS, HookWiringError, createHooks } from './hooks.js';

const ctx = {} as AppContext;

describe('ctx.hooks', () => {
  it('one: the last provider answers; withdrawing it brings back the one it replaced; the fallback without any', async () => {
    const hooks = createHooks();
    expect(await hooks.ask('numberLimit', ctx, 1)).toBeUndefined();
    hooks.provide('numberLimit', async () => 5);
    const withdraw = hooks.provide('numberLimit', async () => 9);
    expect(await hooks.ask('numberLimit', ctx, 1)).toBe(9);
    withdraw();
    expect(await hooks.ask('numberLimit', ctx, 1)).toBe(5);
  });

  it('one without a fallback: asking with no provider is a wiring error', () => {
    expect(() => createHooks().ask('numberOfCompany', ctx, 1, 2)).toThrow(HookWiringError);
  });

  it('many: every distinct provider once, in order', () => {
    const hooks = createHooks();
    const a = async () => ({ skipInbox: false, campaignId: null });
    const b = async () => ({ skipInbox: true, campaignId: 3 });
    hooks.provide('inboundReply', a);
    const withdrawB = hooks.provide('inboundReply', b);
    hooks.provide('inboundReply', a);
    expect(hooks.all('inboundReply')).toEqual([a, b]);
    withdrawB();
    expect(hooks.all('inboundReply')).toEqual([a]);
  });

  it('keyed: one provider per key; a key is required, and refused elsewhere', async () => {
    const hooks = createHooks();
    hooks.provide('companyUsageProbe', async () => true, 'numbers');
    hooks.provide('companyUsageProbe', async () => false, 'calls');
    expect(hooks.all('companyUsageProbe')).toHaveLength(2);
    expect(await hooks.of('companyUsageProbe', 'calls')?.(ctx, 1, undefined as never)).toBe(false);
    expect(hooks.of('companyUsageProbe', 'fax')).toBeUndefined();
    expect(() => hooks.provide('companyUsageProbe', async () => true)).toThrow(HookWiringError);
    expect(() => hooks.provide('numberLimit', async () => 1, 'x')).toThrow(HookWiringError);
  });

  it('two contexts never share a provider', () => {
    const one = createHooks();
    const two = createHooks();
    one.provide('tagCallUsage', async () => new Map());
    expect(two.get('tagCallUsage')).toBeUndefined();
  });
});

describe('docs/architecture.md "Hooks"', () => {
  it('lists every declared hook with its asker and kind', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../../../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Hooks'), doc.indexOf('## Module entries'));
    const rows = [...section.matchAll(/^\|\s*`(\w+)`\s*\|\s*([^|]+?)\s*\|[^|]*\|\s*(one|many|keyed)\s*\|/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows.sort()).toEqual(
      Object.entries(HOOKS)
        .map(([name, d]) => [name, d.askedBy, d.kind])
        .sort(),
    );
  });
});
