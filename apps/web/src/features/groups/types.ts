/** Shapes of the groups endpoints (spec 001 §3 "Contact group"; GET /api/groups). */
export interface ContactGroup {
  id: number;
  name: string;
  company_id: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Members; active = neither unsubscribed nor invalid. */
  contact_count: number;
  active_count: number;
  invalid_count: number;
  unsubscriber_count: number;
  contacts_link: string;
  virtual: boolean;
  user_id: number | null;
  link: string | null;
}
