/**
 * The page envelope of paged lists (foundation: `{data, meta: {current_page, per_page, total,
 * last_page}}`). One builder so every list computes `last_page` the same way.
 */

/** The `meta` of a paged list. `last_page` is at least 1 (an empty list has one empty page). */
export type PageMeta = { current_page: number; per_page: number; total: number; last_page: number };

/**
 * Builds the page meta.
 * @param page 1-based page number asked for.
 * @param perPage page size (> 0).
 * @param total number of rows matching, all pages together.
 */
export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / Math.max(1, perPage))) };
}
