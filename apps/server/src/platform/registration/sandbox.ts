/**
 * The sandbox registry (docs/sms-verification.md "Sandbox registry"): offline, deterministic, and moving submissions
 * over time the way The Campaign Registry (TCR) and the carriers do. Nothing is kept in memory: a review is computed
 * from the submission, the time it was made and {@link registryClock}, so every node and every restart agree.
 *
 * Timing ({@link sandboxRegistryTuning}, ms): a brand is `pending` for `brandReviewMs` (default 20 s), a local side
 * for `campaignReviewMs` after its submission (default 30 s; never before its brand is decided), a toll-free side for
 * `tollFreeReviewMs` (default 45 s). Tests speed the clock up with `registryClock.advance(ms)`.
 *
 * Outcomes (checked in this order):
 * - brand: an EIN starting with `00` → `unverified` ("EIN does not match"); else `verified` with a vetting score equal
 *   to the EIN's last two digits (`00` → 100), so a test picks its throughput tier by its EIN.
 * - campaign side: brand unverified → rejected; no opt-in description with consent wording (consent, agree, opt in,
 *   opt-in, sign up, subscribe) → rejected "Opt-in description missing the consent wording…"; neither the opt-out
 *   message nor a sample message says STOP → rejected "Opt-out instructions missing…"; a description shorter than
 *   40 characters → rejected "Campaign description too short…"; else approved.
 */
import { createHash } from 'node:crypto';
import type { BrandReview, BrandSubmission, CampaignReview, CampaignSubmission, RegistryNotice, RegistryRef, SmsRegistry } from './registry.port.js';

/** Review durations of the sandbox registry (ms); tests may set them. */
export const sandboxRegistryTuning = { brandReviewMs: 20_000, campaignReviewMs: 30_000, tollFreeReviewMs: 45_000 };

/** The registry's clock (UTC ms). `advance(ms)` moves it forward (tests and the simulator); `reset()` undoes it. */
export const registryClock = {
  offsetMs: 0,
  now(): number {
    return Date.now() + this.offsetMs;
  },
  advance(ms: number): void {
    this.offsetMs += ms;
  },
  reset(): void {
    this.offsetMs = 0;
  },
};

const CONSENT = /\b(consent|agree[sd]?|opt[- ]?in|sign(?:s|ed)?[- ]?up|subscribe[sd]?)\b/i;
const STOP = /\bSTOP\b/;

/** The sandbox brand outcome once its review time has passed (exported for the docs' table and tests). */
export function sandboxBrandOutcome(brand: Pick<BrandSubmission, 'taxId'>): Exclude<BrandReview, { status: 'pending' }> {
  const ein = brand.taxId.replace(/\D/g, '');
  if (ein.startsWith('00'))
    return {
      status: 'unverified',
      reason: `The EIN ${ein.slice(0, 2)}-${ein.slice(2)} does not match the legal company name in the IRS records: enter the EIN and the legal name exactly as on the IRS letter (CP 575) and submit again.`,
    };
  const last = Number(ein.slice(-2));
  return { status: 'verified', vettingScore: last === 0 ? 100 : last };
}

/** The sandbox campaign-side outcome once its review time has passed and its brand is decided. */
export function sandboxCampaignOutcome(c: CampaignSubmission, brand: BrandReview): Exclude<CampaignReview, { status: 'pending' }> {
  const prefix = c.side === 'toll_free' ? 'Toll-free verification: ' : '';
  if (c.side === 'local' && brand.status === 'unverified')
    return { status: 'rejected', reason: 'The brand is not verified: correct the brand details and submit again.' };
  if (!c.optins.some((o) => CONSENT.test(o.description)))
    return {
      status: 'rejected',
      reason: `${prefix}Opt-in description missing the consent wording: say how a person agrees to receive texts, e.g. "By checking this box I agree to receive text messages from …".`,
    };
  if (!STOP.test(c.optOutMessage) && !c.sampleMessages.some((m) => STOP.test(m)))
    return {
      status: 'rejected',
      reason: `${prefix}Opt-out instructions missing: the opt-out message or a sample message must say how to stop, e.g. "Reply STOP to opt out".`,
    };
  if (c.description.trim().length < 40)
    return { status: 'rejected', reason: `${prefix}Campaign description too short: say who sends the messages, to whom and why (at least 40 characters).` };
  return { status: 'approved' };
}

function sandboxId(prefix: string, parts: unknown): string {
  return `${prefix}${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 7).toUpperCase()}`;
}

/** The offline registry (see the file's comment for its rules). */
export class SandboxRegistry implements SmsRegistry {
  readonly kind = 'sandbox' as const;

  async submitBrand(brand: BrandSubmission): Promise<string> {
    return sandboxId('B', [brand.brandId, brand.taxId, registryClock.now()]);
  }

  async reviewBrand(ref: RegistryRef, brand: BrandSubmission): Promise<BrandReview> {
    if (registryClock.now() < ref.submittedAt.getTime() + sandboxRegistryTuning.brandReviewMs) return { status: 'pending' };
    return sandboxBrandOutcome(brand);
  }

  async submitCampaign(c: CampaignSubmission): Promise<string> {
    return sandboxId(c.side === 'local' ? 'C' : 'TF', [c.campaignId, c.side, registryClock.now()]);
  }

  async reviewCampaign(ref: RegistryRef, c: CampaignSubmission, brand: BrandReview): Promise<CampaignReview> {
    const wait = c.side === 'local' ? sandboxRegistryTuning.campaignReviewMs : sandboxRegistryTuning.tollFreeReviewMs;
    if (registryClock.now() < ref.submittedAt.getTime() + wait) return { status: 'pending' };
    if (c.side === 'local' && brand.status === 'pending') return { status: 'pending' };
    return sandboxCampaignOutcome(c, brand);
  }

  async assignNumbers(): Promise<void> {}

  async unassignNumbers(): Promise<void> {}

  async cancelCampaign(): Promise<void> {}

  async parseWebhook(): Promise<RegistryNotice | null> {
    return null;
  }
}
