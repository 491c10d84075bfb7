/**
 * The dialer's recent numbers: the last RECENT_MAX numbers a user called from this browser (with
 * the contact's name when the call was placed to a contact), newest first, kept in localStorage
 * under `switchboard.dialer.recent.{userId}`. Unavailable storage (private mode, quota) keeps none.
 */
export type RecentNumber = { number: string; name: string | null };

export const RECENT_MAX = 5;

const key = (userId: number) => `switchboard.dialer.recent.${userId}`;

/** The user's recent numbers, newest first (empty when none or unreadable). */
export function readRecent(userId: number): RecentNumber[] {
  try {
    const raw = JSON.parse(localStorage.getItem(key(userId)) ?? '[]') as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.filter((r): r is RecentNumber => typeof r?.number === 'string' && (r.name === null || typeof r.name === 'string')).slice(0, RECENT_MAX);
  } catch (error) {
    // A damaged entry (SyntaxError) or storage the browser refuses (DOMException): no recent numbers.
    if (error instanceof SyntaxError || error instanceof DOMException) return [];
    throw error;
  }
}

/** Puts `entry` first (once per number) and returns the new list. */
export function rememberRecent(userId: number, entry: RecentNumber): RecentNumber[] {
  const next = [entry, ...readRecent(userId).filter((r) => r.number !== entry.number)].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(key(userId), JSON.stringify(next));
  } catch (error) {
    // Storage full or refused: the list simply is not kept.
    if (!(error instanceof DOMException)) throw error;
  }
  return next;
}
