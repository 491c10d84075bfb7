/** A blocked caller (spec 001 "Blocked caller"): on one number, or global for the company (packages/contracts). */
import type { BlockSchema, Infer } from '@switchboard/contracts';

export type Block = Infer<typeof BlockSchema>;

/** A company number to block a caller on (handed in by the app from the numbers feature). */
export interface NumberChoice {
  value: string;
  label: string;
}
