/**
 * The 10DLC registry port (docs/sms-verification.md "Registry"): what the sms-verification module asks of The Campaign
 * Registry (TCR) and the carriers, through a provider. Two adapters: `sandbox.ts` (offline; moves submissions over
 * time by documented deterministic rules) and `telnyx.ts` (Telnyx's 10DLC and toll-free verification APIs through the
 * official `telnyx` package, the only file importing it). A local side is a 10DLC campaign at TCR; a toll-free side
 * is a toll-free verification request. Reviews are asked for by the module's poll job; a provider webhook only makes
 * the job look again sooner.
 */

/** A brand as submitted (spec 002 §3 "Brand form options"; values as TCR names them). */
export type BrandSubmission = {
  brandId: number;
  companyId: number;
  companyType: string;
  legalName: string;
  dbaName: string;
  /** US EIN, digits only. */
  taxId: string;
  taxIdType: string | null;
  altBusinessId: string;
  taxIdCountry: string;
  stockExchange: string | null;
  stockSymbol: string;
  vertical: string;
  website: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  contactFirstName: string;
  contactLastName: string;
};

/** A campaign side as submitted. */
export type CampaignSubmission = {
  campaignId: number;
  side: 'local' | 'toll_free';
  /** The brand's registry id (local side). */
  brandRegistryId: string | null;
  brand: BrandSubmission;
  useCase: string;
  subUsecases: string[];
  description: string;
  messageVolume: string;
  sampleMessages: string[];
  optins: Array<{ method: string; description: string; files: number }>;
  optOutMessage: string;
  helpMessage: string;
  embeddedLinks: boolean;
  embeddedPhone: boolean;
  ageGated: boolean;
  directLending: boolean;
  /** E.164 numbers of the side (toll-free verification names its numbers). */
  numbers: string[];
};

/** A submission already made: its registry id and when it was made (UTC). */
export type RegistryRef = { registryId: string; submittedAt: Date };

/** The registry's view of a brand. `vettingScore` 1–100; `reason` in words a person can act on. */
export type BrandReview = { status: 'pending' } | { status: 'verified'; vettingScore: number } | { status: 'unverified'; reason: string };
/** The registry's view of a campaign side. */
export type CampaignReview = { status: 'pending' } | { status: 'approved' } | { status: 'rejected'; reason: string };

/** A verified provider webhook: which registry object changed (the module then reviews it again). */
export type RegistryNotice = { eventId: string; registryId: string; subject: 'brand' | 'campaign' };

/** A webhook whose signature does not verify. */
export class RegistrySignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrySignatureError';
  }
}

/** The provider refused a submission (bad field, duplicate brand...): its message is shown to the person as is. */
export class RegistryRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryRefusedError';
  }
}

/** The port. Every method may throw the provider's transport errors (they surface as 5xx, jobs retry them). */
export interface SmsRegistry {
  readonly kind: 'sandbox' | 'telnyx';
  /** Registers (or re-submits) a brand. @returns its registry id. @throws RegistryRefusedError */
  submitBrand(brand: BrandSubmission, previous: string | null): Promise<string>;
  /** The brand's current review. */
  reviewBrand(ref: RegistryRef, brand: BrandSubmission): Promise<BrandReview>;
  /** Submits one side of a campaign (a resubmission after a rejection gets a new id). @throws RegistryRefusedError */
  submitCampaign(campaign: CampaignSubmission): Promise<string>;
  /** The side's current review (`brand` is the brand's own review, a campaign waits for its brand). */
  reviewCampaign(ref: RegistryRef, campaign: CampaignSubmission, brand: BrandReview): Promise<CampaignReview>;
  /** Assigns numbers (E.164) to an approved side; idempotent. */
  assignNumbers(side: 'local' | 'toll_free', registryId: string, numbers: string[]): Promise<void>;
  /** Removes numbers from a side; idempotent. */
  unassignNumbers(side: 'local' | 'toll_free', registryId: string, numbers: string[]): Promise<void>;
  /** Deactivates a side (cancel); idempotent. */
  cancelCampaign(side: 'local' | 'toll_free', registryId: string): Promise<void>;
  /** Verifies and parses a provider webhook. @throws RegistrySignatureError; null for an event that names no registry object. */
  parseWebhook(rawBody: string, headers: Record<string, string>): Promise<RegistryNotice | null>;
}
