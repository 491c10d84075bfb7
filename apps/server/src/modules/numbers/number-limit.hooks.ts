/**
 * The number-limit hook (docs/billing.md "Number limit"; docs/architecture.md "Hooks"): the numbers module asks a
 * higher module (billing registers it in its setup) for the limit a company's plan gives. A limit stored for the
 * company (`company_number_limits`, e.g. an approved increase request) still wins; without either the default applies.
 */
import type { AppContext } from '../../context.js';

/** The plan's number limit of a company, or undefined when it has no live plan. */
export type NumberLimitSource = (ctx: AppContext, companyId: number) => Promise<number | undefined>;

const sources = new WeakMap<AppContext, NumberLimitSource>();

/** Registers the source for this app (idempotent: the last registration wins). */
export function registerNumberLimitSource(ctx: AppContext, source: NumberLimitSource): void {
  sources.set(ctx, source);
}

/** The plan's limit of the company, or undefined without a registered source or a live plan. */
export async function planNumberLimit(ctx: AppContext, companyId: number): Promise<number | undefined> {
  const source = sources.get(ctx);
  return source ? source(ctx, companyId) : undefined;
}
