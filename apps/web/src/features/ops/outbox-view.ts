/**
 * Pure rules of the operators' "Event delivery" screen (docs/operations.md "Domain-event outbox", "The operators'
 * screen"): when a consumer needs attention, how lag and the refresh age read, the replay dialog's default time
 * and its confirmation sentence. Times in the dialog are the browser's own zone (a `datetime-local` input);
 * what is sent is ISO-8601 UTC.
 */
import type { OutboxConsumerStatus, OutboxDeadLetter } from '@switchboard/contracts';

/** Lag (age of the oldest pending delivery) above which a consumer is shown as behind, seconds. */
export const LAG_WARNING_S = 60;
/** How often the screen reads the outbox again, ms. */
export const OUTBOX_REFRESH_MS = 5_000;

/** A consumer's state on screen: dead letters first, then lag above {@link LAG_WARNING_S}, else fine. */
export type ConsumerHealth = 'dead' | 'behind' | 'ok';

/** Whether a consumer needs an operator: `dead` with any dead letter, `behind` with lag > 60 s, else `ok`. */
export function consumerHealth(c: Pick<OutboxConsumerStatus, 'dead' | 'lagS'>): ConsumerHealth {
  if (c.dead > 0) return 'dead';
  if (c.lagS > LAG_WARNING_S) return 'behind';
  return 'ok';
}

/** Seconds as people read a delay: "0 s", "4.2 s", "59 s", "3 min 5 s", "2 h 4 min". */
export function formatLag(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0 s';
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ''}`;
}

/** "updated just now" / "updated 7 s ago" / "updated 3 min ago" from the last answer's time (epoch ms). */
export function updatedAgo(updatedAt: number, now: number): string {
  const s = Math.max(0, Math.floor((now - updatedAt) / 1000));
  if (s < 1) return 'updated just now';
  if (s < 60) return `updated ${s} s ago`;
  return `updated ${Math.floor(s / 60)} min ago`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The value of a `datetime-local` input (browser zone, minutes) for an instant. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The replay dialog's starting point: the same minute yesterday, as a `datetime-local` value. */
export function defaultReplaySince(now: Date): string {
  return toLocalInput(new Date(now.getTime() - 24 * 3600 * 1000));
}

/** A `datetime-local` value (browser zone) as an ISO-8601 UTC instant; null when empty or not a time. */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An instant in the browser's zone (or `timeZone`), with the zone named: "Nov 27, 2026, 10:00 AM EST". */
export function formatInstant(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/**
 * The replay confirmation: "Every event since Nov 27, 2026, 10:00 AM EST will be delivered to analytics.facts
 * again." (with "of company 7" when one company is given).
 */
export function replaySentence(consumer: string, sinceIso: string, companyId?: number, timeZone?: string): string {
  const of = companyId ? ` of company ${companyId}` : '';
  return `Every event${of} since ${formatInstant(sinceIso, timeZone)} will be delivered to ${consumer} again.`;
}

/** One consumer's dead letters on screen: those among the newest listed, and how many more it has. */
export interface DeadLetterGroup {
  consumer: string;
  letters: OutboxDeadLetter[];
  /** Dead letters of this consumer not in the list (the answer carries the newest 100 of all consumers). */
  more: number;
}

/** Dead letters grouped by consumer, in the consumers' order; consumers without dead letters are left out. */
export function groupDeadLetters(consumers: OutboxConsumerStatus[], letters: OutboxDeadLetter[]): DeadLetterGroup[] {
  const groups: DeadLetterGroup[] = [];
  const names = [...consumers.map((c) => c.consumer), ...letters.map((l) => l.consumer)];
  for (const consumer of [...new Set(names)]) {
    const own = letters.filter((l) => l.consumer === consumer);
    const dead = consumers.find((c) => c.consumer === consumer)?.dead ?? own.length;
    if (own.length === 0 && dead === 0) continue;
    groups.push({ consumer, letters: own, more: Math.max(0, dead - own.length) });
  }
  return groups;
}
