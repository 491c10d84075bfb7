/**
 * The analytics and ad-platform browser ids the tracking script reads from the page's cookies at number assignment
 * (issue 24; docs/tracking.md "Ad platform ids"), parsed into what the integrations send:
 * - GA4 `client_id` from `_ga` (`GA1.1.1234567890.1700000000` → `1234567890.1700000000`);
 * - GA4 `session_id` from `_ga_<stream>`: the older `GS1.1.1700000000.5.1…` (third field) and the newer
 *   `GS2.1.s1700000000$o5$g1…` (`s` field) formats; the first stream's when the page has several;
 * - Meta `_fbp` (`fb.1.<ms>.<random>`) and `_fbc` (`fb.1.<ms>.<fbclid>`); without an `_fbc` cookie but with an `fbclid`
 *   on the landing page, `fb.1.<now ms>.<fbclid>` as Meta's Conversions API documents for `fbc`.
 * Anything malformed is dropped (null), never stored.
 */

/** What the script sends (contracts `DniPublicSessionInput` `ga`, `gs`, `fbp`, `fbc`). */
export interface AdCookies {
  ga?: string;
  gs?: string;
  fbp?: string;
  fbc?: string;
}
/** What a session keeps (columns of `dni_sessions`, migration 0071). */
export interface AdIds {
  ga_client_id: string | null;
  ga_session_id: string | null;
  fbp: string | null;
  fbc: string | null;
}

/** GA4 client id of a `_ga` cookie value, or null. */
export function gaClientIdOf(ga: string | undefined): string | null {
  const m = /^GA\d+\.\d+\.(\d{1,20}\.\d{1,20})$/.exec(ga ?? '');
  return m ? m[1]! : null;
}

/** GA4 session id of the first `_ga_<stream>` cookie (`<stream>:<value>` entries joined by `!`), or null. */
export function gaSessionIdOf(gs: string | undefined): string | null {
  for (const entry of (gs ?? '').split('!').slice(0, 10)) {
    const value = entry.slice(entry.indexOf(':') + 1);
    const m = /^GS1\.\d+\.(\d{1,20})\./.exec(value) ?? /^GS2\.\d+\.s(\d{1,20})(?:\$|$)/.exec(value);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * The ids of a visit: parsed cookies, and `fbc` from the landing page's `fbclid` when the page had no `_fbc`.
 * @param now the time of the visit (ms) for a built `fbc`.
 */
export function adIdsOf(cookies: AdCookies, fbclid: string | null, now: number): AdIds {
  const fbp = /^fb\.\d\.\d{10,16}\.\d{1,30}$/.test(cookies.fbp ?? '') ? cookies.fbp! : null;
  const fbcCookie = /^fb\.\d\.\d{10,16}\.[\w-]{1,500}$/.test(cookies.fbc ?? '') ? cookies.fbc! : null;
  const fbc = fbcCookie ?? (fbclid && /^[\w-]{1,500}$/.test(fbclid) ? `fb.1.${now}.${fbclid}` : null);
  return { ga_client_id: gaClientIdOf(cookies.ga), ga_session_id: gaSessionIdOf(cookies.gs), fbp, fbc };
}

/** Whether any id is known (nothing to store otherwise). */
export function hasAdIds(ids: AdIds): boolean {
  return ids.ga_client_id !== null || ids.ga_session_id !== null || ids.fbp !== null || ids.fbc !== null;
}
