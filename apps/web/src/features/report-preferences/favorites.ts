/**
 * Opening a favourite (docs/alerts.md "Favourite reports"): its `path` with its `filters` as URL search params
 * (lists comma-separated, null left out), plus `group` from `grouping` and `columns` (comma list) unless the filters
 * already carry them. Report screens keep their state in the URL, so the link reopens the saved report.
 */
import type { FavoriteReportState } from './types';

/** The in-app link that reopens a favourite. */
export function favoriteHref(state: Pick<FavoriteReportState, 'path' | 'filters' | 'grouping' | 'columns'>): string {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(state.filters ?? {})) {
    if (v === null || v === undefined) continue;
    params.set(key, Array.isArray(v) ? v.join(',') : String(v));
  }
  if (state.grouping && !params.has('group')) params.set('group', state.grouping);
  if (state.columns?.length && !params.has('columns')) params.set('columns', state.columns.join(','));
  const q = params.toString();
  return q ? `${state.path}?${q}` : state.path;
}

/** Search params as favourite filters (the inverse of {@link favoriteHref} for a screen that keeps its state in the URL). */
export function filtersFromSearch(search: string | URLSearchParams): Record<string, string> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return Object.fromEntries(params.entries());
}

const SCREEN_LABELS: Record<string, string> = {
  '/dashboard': 'Dashboard',
  '/reports': 'Call reports',
  '/tracking/reports': 'Tracking reports',
  '/tracking/feed': 'Real-time feed',
  '/activity': 'Activity',
};

/** The screen a favourite opens, as a person reads it. */
export function screenLabel(path: string): string {
  return SCREEN_LABELS[path] ?? path;
}
