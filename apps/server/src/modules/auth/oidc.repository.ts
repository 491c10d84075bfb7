/**
 * SQL for the OIDC sign-in tables (modules/auth owns them; migration 0025; docs/auth.md "OIDC sign-in"):
 * `oidc_identities` (linked provider accounts), `oidc_flows` (authorization requests in progress, single use) and
 * `oidc_link_consents` (verified provider accounts waiting for consent before they are linked, single use).
 */
import type { Insertable, Selectable } from 'kysely';
import type { DbOrTx } from '../../platform/db/db.js';
import type { OidcFlowsTable, OidcIdentitiesTable, OidcLinkConsentsTable } from '../../platform/db/schema-signin.js';

export type OidcIdentityRow = Selectable<OidcIdentitiesTable>;
export type OidcFlowRow = Selectable<OidcFlowsTable>;
export type OidcLinkConsentRow = Selectable<OidcLinkConsentsTable>;

/** SQL for `oidc_identities`, `oidc_flows`, `oidc_link_consents`. */
export const oidcRepository = {
  /** Stores a new flow, first deleting every flow that ended before `now`. */
  async createFlow(db: DbOrTx, row: Insertable<OidcFlowsTable>, now: Date): Promise<void> {
    await db.deleteFrom('oidc_flows').where('expires_at', '<', now).execute();
    await db.insertInto('oidc_flows').values(row).execute();
  },
  /** Deletes and returns the flow of `state` (single use: a second call finds nothing); expired flows are not answered. */
  async takeFlow(db: DbOrTx, state: string, now: Date): Promise<OidcFlowRow | undefined> {
    const row = await db.deleteFrom('oidc_flows').where('state', '=', state).returningAll().executeTakeFirst();
    return row && row.expires_at > now ? row : undefined;
  },

  async findIdentity(db: DbOrTx, issuer: string, subject: string): Promise<OidcIdentityRow | undefined> {
    return db.selectFrom('oidc_identities').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
  },
  /** Records a sign-in with the identity: when, and the e-mail the provider gave this time. */
  async touchIdentity(db: DbOrTx, id: number, email: string | null, now: Date): Promise<void> {
    await db.updateTable('oidc_identities').set({ last_used_at: now, email }).where('id', '=', id).execute();
  },
  /**
   * Links `issuer`+`subject` to the user unless that identity is already linked (to anyone).
   * @returns the identity row now stored for `issuer`+`subject` (the existing one when it was already linked).
   */
  async linkIdentity(
    db: DbOrTx,
    row: { user_id: number; provider: string; issuer: string; subject: string; email: string | null; last_used_at: Date },
  ): Promise<OidcIdentityRow> {
    const inserted = await db
      .insertInto('oidc_identities')
      .values(row)
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return (
      inserted ??
      (await db.selectFrom('oidc_identities').selectAll().where('issuer', '=', row.issuer).where('subject', '=', row.subject).executeTakeFirstOrThrow())
    );
  },
  /** The user's linked identities, oldest first. */
  async listIdentities(db: DbOrTx, userId: number): Promise<OidcIdentityRow[]> {
    return db.selectFrom('oidc_identities').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  },
  /** Unlinks identity `id` of the user; false when the user has no such identity. */
  async deleteIdentity(db: DbOrTx, userId: number, id: number): Promise<boolean> {
    const r = await db.deleteFrom('oidc_identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return r.numDeletedRows > 0n;
  },

  /** Stores a consent request, first deleting every request that ended before `now`. */
  async createConsent(db: DbOrTx, row: Insertable<OidcLinkConsentsTable>, now: Date): Promise<void> {
    await db.deleteFrom('oidc_link_consents').where('expires_at', '<', now).execute();
    await db.insertInto('oidc_link_consents').values(row).execute();
  },
  /** The unexpired consent request of a nonce hash, without using it. */
  async findConsent(db: DbOrTx, nonceHash: string, now: Date): Promise<OidcLinkConsentRow | undefined> {
    return db.selectFrom('oidc_link_consents').selectAll().where('nonce_hash', '=', nonceHash).where('expires_at', '>', now).executeTakeFirst();
  },
  /** Deletes and returns the consent request (single use); expired requests are not answered. */
  async takeConsent(db: DbOrTx, nonceHash: string, now: Date): Promise<OidcLinkConsentRow | undefined> {
    const row = await db.deleteFrom('oidc_link_consents').where('nonce_hash', '=', nonceHash).returningAll().executeTakeFirst();
    return row && row.expires_at > now ? row : undefined;
  },
};
