/** What a person reads for alert states, monitors and severities (docs/alerts.md). */
import { ALERT_DISMISS_REASON_LABELS, ALERT_TYPE_LABELS } from '@switchboard/contracts';
import type { AlertHistoryEntry, AlertState } from './types';

export { ALERT_DISMISS_REASON_LABELS, ALERT_TYPE_LABELS };

export const STATE_LABELS: Record<AlertState, string> = { open: 'Open', acknowledged: 'Acknowledged', resolved: 'Resolved', dismissed: 'Dismissed' };
export const STATE_COLORS: Record<AlertState, string> = { open: 'red', acknowledged: 'yellow', resolved: 'teal', dismissed: 'gray' };

/** One history line: "Rita Reader dismissed it (Duplicate)", "The monitor raised it", … */
export function historyText(h: AlertHistoryEntry): string {
  const who = h.userName ?? (h.userId === null ? 'The monitor' : 'Someone');
  switch (h.action) {
    case 'created':
      return `${who} raised it`;
    case 'read':
      return `${who} opened it`;
    case 'resolved':
      return `${who} resolved it`;
    case 'reopened':
      return `${who} reopened it`;
    case 'updated':
      if (h.fromState === h.toState) return `${who} commented`;
      if (h.toState === 'dismissed') return `${who} dismissed it${h.reason ? ` (${ALERT_DISMISS_REASON_LABELS[h.reason]})` : ''}`;
      return `${who} marked it ${STATE_LABELS[h.toState ?? 'open'].toLowerCase()}`;
  }
}
