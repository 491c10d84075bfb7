/**
 * The hook registry of one app context (`ctx.hooks`; docs/architecture.md "Hooks"): providers register in their
 * module's `setup`, askers read it at run time. The hooks themselves (owner, providers, kind, signature, default)
 * are declared in `./registry.ts`. Built once per context in `bootstrap.ts`.
 */
import { HOOKS, type HookDeclaration, type HookFn, type HookName } from './registry.js';

export { HOOKS };
export type { HookDeclaration, HookFn, HookName, HookSignatures } from './registry.js';

type KindOf<K extends HookName> = (typeof HOOKS)[K]['kind'];
/** Names of the hooks of one kind. */
export type HooksOfKind<T extends 'one' | 'many' | 'keyed'> = { [K in HookName]: KindOf<K> extends T ? K : never }[HookName];

/** Raised when a `one` hook without a fallback is asked and nothing provides it, or a provider is wired the wrong way. */
export class HookWiringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookWiringError';
  }
}

/**
 * The providers of every hook for one app context. Semantics per kind (see `./registry.ts`): `one` keeps the last
 * provider; `many` keeps each distinct function once, in order; `keyed` keeps the last provider per key.
 */
export class Hooks {
  /** name → key (`''` for `one` and `many`; the function itself is the key of `many`) → provider, in insertion order. */
  private readonly providers = new Map<HookName, Map<unknown, HookFn<HookName>>>();

  /**
   * Provides hook `name` (a module's `setup`). `key` is required for `keyed` hooks and refused for the others.
   * Providing the same thing again is idempotent. @returns a function that withdraws this provider (tests); for a
   * `one` or `keyed` hook it puts back the provider it replaced.
   * @throws HookWiringError on a missing or unexpected key.
   */
  provide<K extends HookName>(name: K, impl: HookFn<K>, key?: string): () => void {
    const kind = HOOKS[name].kind;
    if ((kind === 'keyed') !== (key !== undefined)) {
      throw new HookWiringError(`hook ${name} (${kind}): ${kind === 'keyed' ? 'a key is required' : 'takes no key'}`);
    }
    const slot = kind === 'keyed' ? key : kind === 'many' ? impl : '';
    let m = this.providers.get(name);
    if (!m) this.providers.set(name, (m = new Map()));
    const replaced = m.get(slot);
    m.set(slot, impl as HookFn<HookName>);
    return () => {
      if (m.get(slot) !== impl) return;
      if (replaced && replaced !== impl && kind !== 'many') m.set(slot, replaced);
      else m.delete(slot);
    };
  }

  /** The provider of a `one` hook, or undefined when none. */
  get<K extends HooksOfKind<'one'>>(name: K): HookFn<K> | undefined {
    return this.providers.get(name)?.get('') as HookFn<K> | undefined;
  }

  /**
   * Asks a `one` hook: its provider, else the declared fallback.
   * @throws HookWiringError when neither exists; whatever the provider throws.
   */
  ask<K extends HooksOfKind<'one'>>(name: K, ...args: Parameters<HookFn<K>>): ReturnType<HookFn<K>> {
    const declared = HOOKS[name] as HookDeclaration<K>;
    const fn = (this.get(name) ?? declared.fallback) as ((...a: unknown[]) => ReturnType<HookFn<K>>) | undefined;
    if (!fn) throw new HookWiringError(`hook ${name}: nothing provides it (expected from ${HOOKS[name].providedBy.join(', ')})`);
    return fn(...args);
  }

  /** The provider of a `keyed` hook for `key`, or undefined. */
  of<K extends HooksOfKind<'keyed'>>(name: K, key: string): HookFn<K> | undefined {
    return this.providers.get(name)?.get(key) as HookFn<K> | undefined;
  }

  /** Every provider of a `many` or `keyed` hook, in the order provided. */
  all<K extends HooksOfKind<'many' | 'keyed'>>(name: K): Array<HookFn<K>> {
    return [...(this.providers.get(name)?.values() ?? [])] as Array<HookFn<K>>;
  }

  /** What is provided now, per hook: its keys (`keyed`) or count (docs, tests). */
  describe(): Record<string, { kind: string; providers: number; keys?: string[] }> {
    const out: Record<string, { kind: string; providers: number; keys?: string[] }> = {};
    for (const [name, m] of this.providers) {
      const kind = HOOKS[name].kind;
      out[name] = { kind, providers: m.size, ...(kind === 'keyed' ? { keys: [...m.keys()].map(String) } : {}) };
    }
    return out;
  }
}

/** A fresh registry for an app context (bootstrap, where the context is created). */
export function createHooks(): Hooks {
  return new Hooks();
}
