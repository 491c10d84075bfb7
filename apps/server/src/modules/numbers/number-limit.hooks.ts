/**
 * The number-limit hook (docs/billing.md "Number limit"; docs/architecture.md "Hooks"): the numbers module asks a
 * higher module (billing provides it in its setup, `ctx.hooks.provide('numberLimit', …)`) for the limit a company's plan gives. A limit stored for the
 * company (`company_number_limits`, e.g. an approved increase request) still wins; without either the default applies.
 */
import type { AppContext } from '../../context.js';
import type { HookFn } from '../../platform/hooks/registry.js';

/** The plan's number limit of a company, or undefined when it has no live plan (the `numberLimit` hook; billing provides it in its setup). */
export type NumberLimitSource = HookFn<'numberLimit'>;

/** The plan's limit of the company, or undefined without a registered source or a live plan. */
export async function planNumberLimit(ctx: AppContext, companyId: number): Promise<number | undefined> {
  return ctx.hooks.ask('numberLimit', ctx, companyId);
}
