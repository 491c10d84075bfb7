/**
 * Domain events of SMS registration (10DLC and toll-free verification; owned by
 * modules/sms-verification). Other modules only subscribe: billing bills the registration fees on
 * the next invoice (docs/sms-verification.md "Fees"). See `platform/events/index.ts`.
 */
import { z } from 'zod';

export const COMPLIANCE_EVENTS = {
  /**
   * A brand and/or campaign was submitted to the registry (after commit), with the fees due for
   * that submit (integer cents, USD; empty when nothing was due). `submittedAt` (ISO, UTC) with
   * the campaign id identifies the submit: a repeated event bills nothing twice.
   */
  'sms-verification.submitted': z.object({
    companyId: z.number().int(),
    campaignId: z.number().int(),
    submittedAt: z.string(),
    fees: z.array(z.object({ code: z.string(), label: z.string(), amountCents: z.number().int().nonnegative() })),
  }),
} as const;
