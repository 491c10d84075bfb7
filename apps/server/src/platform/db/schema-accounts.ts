/**
 * Kysely table types added for modules companies and users (organizations, invitations, account status) (migration 0020). Part of `DB` (schema.ts); every
 * table is listed in `modules/ownership.ts` TABLE_OWNERS under its owner.
 */
import type { ColumnType, Generated } from 'kysely';

type Json<T> = ColumnType<T, string | T, string | T>;

/** modules/users: numbers assigned to a user in a company (spec "User: ... numbers"; in-app calling rings them). */
export interface UserNumbersTable {
  company_id: number;
  user_id: number;
  number_id: number;
  created_at: Generated<Date>;
}

/** modules/users: invitations to join a company (single-use, expiring; `token_hash` = sha256 of the link's token). */
export interface InvitationsTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  role: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  numbers: Json<number[]>;
  token_hash: string;
  invited_by: number | null;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  sent_count: Generated<number>;
  last_sent_at: Generated<Date>;
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  accepted_user_id: number | null;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Generated<Date>;
}

export interface AccountsTables {
  user_numbers: UserNumbersTable;
  invitations: InvitationsTable;
}
