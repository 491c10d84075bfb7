/**
 * Add-ons in use (docs/billing.md "Add-ons"): call recording, call transcription and dynamic number insertion work in
 * the product whether or not the add-on was switched on here, so billing reads where each is used and bills it while
 * it is: recording or transcription on any active number (numbers' call settings), any active DNI pool (tracking).
 * An add-on in use shows as on and cannot be switched off until it is no longer used.
 */
import { BILLING_FEATURES, type BillingFeature } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { callFeatureCountsOf } from '../numbers/numbers.reporting.js';
import { activeDniPoolCount } from '../tracking/tracking.reporting.js';

/** One add-on in use and where (a sentence for the Billing page and the refusal to switch it off). */
export type FeatureUse = { feature: BillingFeature; reason: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The add-ons `companyId` uses now, in the order of `BILLING_FEATURES`. */
export async function featuresInUse(ctx: AppContext, companyId: number): Promise<FeatureUse[]> {
  const [numbers, pools] = await Promise.all([callFeatureCountsOf(ctx, companyId), activeDniPoolCount(ctx, companyId)]);
  const uses: FeatureUse[] = [];
  if (numbers.recording > 0) uses.push({ feature: 'call_recording', reason: `Recording is on for ${plural(numbers.recording, 'number', 'numbers')}.` });
  if (numbers.transcription > 0)
    uses.push({ feature: 'transcription', reason: `Transcription is on for ${plural(numbers.transcription, 'number', 'numbers')}.` });
  if (pools > 0) uses.push({ feature: 'dynamic_number_insertion', reason: `${plural(pools, 'tracking pool is', 'tracking pools are')} active.` });
  return uses;
}

/** The add-ons billed: those subscribed (`stored`) and those in use, each once, sorted. */
export function billedFeatures(stored: readonly string[], inUse: readonly FeatureUse[]): BillingFeature[] {
  return [...new Set([...stored, ...inUse.map((u) => u.feature)])].filter((f): f is BillingFeature => f in BILLING_FEATURES).sort();
}
