/** A blocked caller (spec 001 "Blocked caller"): on one number, or global for the company. */
export interface Block {
  id: number;
  company_id: number;
  number_id: number | null;
  target: string;
  global: boolean;
  action: string;
  created_at: string;
}

/** A company number to block a caller on (handed in by the app from the numbers feature). */
export interface NumberChoice {
  value: string;
  label: string;
}
