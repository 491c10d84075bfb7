/**
 * Toll-free number rules (foundation §5 "Toll-free number", §9 / spec 002 §9 "Toll-free prefixes offered").
 */

/** Area codes of toll-free numbers (foundation §5). */
export const TOLL_FREE_AREA_CODES = ['800', '833', '844', '855', '866', '877', '888'] as const;

/** A toll-free area code. */
export type TollFreeAreaCode = (typeof TOLL_FREE_AREA_CODES)[number];

/** Prefixes offered when searching toll-free numbers, in this order; "8**" is the wildcard (foundation §5). */
export const TOLL_FREE_SEARCH_PREFIXES = ['8**', '800', '888', '877', '866', '855', '844', '833'] as const;

/** A toll-free search prefix. */
export type TollFreeSearchPrefix = (typeof TOLL_FREE_SEARCH_PREFIXES)[number];

const TOLL_FREE_PATTERN = new RegExp(`^(?:\\+1|1)?(?:${TOLL_FREE_AREA_CODES.join('|')})\\d{7}$`);

/**
 * Whether a number is toll-free (foundation §5): dashes, parentheses and spaces are removed first;
 * then an optional leading "+1" or "1" may precede exactly 10 digits whose area code is one of
 * {@link TOLL_FREE_AREA_CODES}.
 *
 * @param input e.g. "1-800-555-0123", "+1 (888) 555 0123", "8335550123"
 * @returns true for a toll-free number
 */
export function isTollFree(input: string): boolean {
  return TOLL_FREE_PATTERN.test(input.replace(/[-()\s]/g, ''));
}
