/** Port-in requests (spec 002 §7 "Ports"; docs/numbers.md "Port-in requests"). */
export const PORT_STATES = ['submitted', 'in_progress', 'completed', 'rejected'] as const;
export type PortState = (typeof PORT_STATES)[number];

export interface PortRequest {
  id: number;
  company_id: number;
  numbers: string[];
  carrier_name: string;
  account_number: string;
  authorized_name: string;
  service_address: string;
  has_bill_copy: boolean;
  state: PortState;
  state_label: string;
  reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface PortRequestInput {
  numbers: string[];
  carrier_name: string;
  account_number: string;
  pin: string;
  authorized_name: string;
  service_address: string;
  bill_copy?: string | null;
}
