/**
 * Runs of repeated audit entries (docs/audit.md "Reading the log"): consecutive entries (newest first) of the same
 * person, action, entity type, path and outcome, without an entity of their own, are one row "N times" with the time of
 * the newest and the oldest, so a burst of routine requests does not push the real changes off the page.
 * An entry on an identified entity (`entity_id`) always stays its own row: each is a change someone may look for.
 */
import type { AuditEntry } from '@switchboard/contracts';

/** One row of the log: its newest entry, how many it stands for and the oldest one's time. */
export interface AuditRun {
  entry: AuditEntry;
  count: number;
  oldestAt: string;
}

function sameRun(a: AuditEntry, b: AuditEntry): boolean {
  return (
    a.entity_id === null &&
    b.entity_id === null &&
    a.actor_kind === b.actor_kind &&
    a.actor_user_id === b.actor_user_id &&
    a.api_key_id === b.api_key_id &&
    a.action === b.action &&
    a.entity_type === b.entity_type &&
    a.path === b.path &&
    a.outcome === b.outcome
  );
}

/** Groups consecutive repeats of `entries` (as listed, newest first); every entry belongs to exactly one run. */
export function groupRuns(entries: readonly AuditEntry[]): AuditRun[] {
  const runs: AuditRun[] = [];
  for (const e of entries) {
    const last = runs[runs.length - 1];
    if (last && sameRun(last.entry, e)) {
      last.count += 1;
      last.oldestAt = e.created_at;
    } else runs.push({ entry: e, count: 1, oldestAt: e.created_at });
  }
  return runs;
}
