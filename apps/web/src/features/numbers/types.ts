/** Shapes of the numbers endpoints (spec 002 §3 "Number"; GET /api/companies/{companyId}/numbers). */
import type { RouteEntry, Schedule } from '@switchboard/domain';

/** A number the company owns, with its routing setup and schedule. */
export interface PhoneNumber {
  id: number;
  company_id: number;
  /** E.164. */
  number: string;
  national_number: string;
  label: string | null;
  type: string | number;
  type_label: string;
  routes: RouteEntry[];
  schedule: Schedule;
  route_type: string;
  schedule_label: string;
}

/** A number offered by the carrier's inventory (GET /api/numbers/search). */
export interface AvailableNumber {
  number: string;
  national_number: string;
  type: 'local' | 'toll_free' | string;
  region: string | null;
  locality: string | null;
  provider_id: string | number;
}

/** Search parameters of GET /api/numbers/search. */
export interface NumberSearchParams {
  type: 'local' | 'toll_free';
  areaCode?: string;
  prefix?: string;
  mode?: string;
  pattern?: string;
  limit?: number;
}
