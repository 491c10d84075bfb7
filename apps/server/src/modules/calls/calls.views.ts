/**
 * Read-side wording of a call's history for the call detail (spec 001 §7 "GET /calls/{id}",
 * docs/telephony.md "Call history" and "Forwards"). Pure functions over stored `call_events`
 * (status at the time + a detail object whose keys say what happened); no I/O.
 *
 * - `describeCallEvent`: a title and a sentence per step, for every kind of step the call flow
 *   records; an unknown detail is worded generically ("key: value", lists joined), never as JSON.
 * - `forwardOutcomes`: every forward the call rang, in order, with its real outcome.
 */
import { CALL_STATUS, formatPhone } from '@switchboard/domain';
import { CALL_OUTCOMES, DEPARTMENT_TYPES, type AscOptions, type CallForward } from '@switchboard/contracts';

type Detail = Record<string, unknown>;
export type StoredEvent = { status: number; detail: unknown; created_at: Date };

/** "m:ss" of whole seconds. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Display names of users by id (users module's `getUserNames`), to word in-app identities with the person's name. */
export type UserNames = ReadonlyMap<number, string>;
const NO_NAMES: UserNames = new Map();

/** The user id of an in-app identity `user_{id}`, or null. */
export function userIdOfTarget(target: string): number | null {
  const m = /^user_(\d+)$/.exec(target);
  return m ? Number(m[1]) : null;
}

/** A user as a person reads them: their name, or "user 12" when it is not known (a user since removed). */
export function userName(userId: number, names: UserNames = NO_NAMES): string {
  return names.get(userId) || `user ${userId}`;
}

/**
 * A forward as a person reads it: a phone number formatted; an in-app identity `user_12` as the person's name with
 * "(app)" — "Dana Demo (app)", the name the reports and CSV show — or "user 12 (app)" when the name is not known.
 */
export function forwardName(target: string, names: UserNames = NO_NAMES): string {
  const id = userIdOfTarget(target);
  if (id !== null) return `${userName(id, names)} (app)`;
  return /^\+?\d{6,}$/.test(target) ? formatPhone(target) : target;
}

/**
 * The user ids a call's stored steps and `forwarded_to` name (in-app identities rung, answered or transferred to,
 * answering, placing and transferring users), for one names lookup before wording them.
 */
export function userIdsOfCall(events: Array<{ detail: unknown }>, forwardedTo: string | null): number[] {
  const ids = new Set<number>();
  const target = (v: unknown) => {
    if (typeof v !== 'string') return;
    for (const part of v.split(', ')) {
      const id = userIdOfTarget(part);
      if (id !== null) ids.add(id);
    }
  };
  target(forwardedTo);
  for (const e of events) {
    const d = (e.detail ?? {}) as Detail;
    if (Array.isArray(d.dialing)) d.dialing.forEach(target);
    for (const k of ['confirmed_by', 'declined_by', 'forwarded_to', 'to']) target(d[k]);
    for (const k of ['answered_by', 'placed_by', 'by', 'to_user']) if (num(d[k]) !== null) ids.add(d[k] as number);
  }
  return [...ids];
}

/** What the menu did after an invalid or missing choice (call event `next`). */
const MENU_NEXT_WORDS: Record<string, { title: string; text: string }> = {
  replay: { title: 'menu replayed', text: 'The menu was played again.' },
  first: { title: 'sent to the first extension', text: 'The menu ran out of replays and connected the first extension.' },
  voicemail: { title: 'sent to voicemail', text: 'The menu ran out of replays and took a message.' },
  hangup: { title: 'hung up', text: 'The menu ran out of replays and said goodbye.' },
};

const DIAL_WORDS: Record<string, string> = {
  'no-answer': 'no answer',
  busy: 'busy',
  failed: 'failed',
  canceled: 'cancelled',
  completed: 'answered',
  answered: 'answered',
};
const CALL_END_WORDS: Record<string, string> = {
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'not answered',
  failed: 'failed',
  canceled: 'cancelled by the caller',
};

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : null;
}
function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Any value as words: lists joined with ", ", objects as "key: value" pairs, phone numbers formatted, in-app identities named. */
function valueText(v: unknown, names: UserNames = NO_NAMES): string {
  if (Array.isArray(v)) return v.map((x) => valueText(x, names)).join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v as Detail)
      .map(([k, x]) => `${k.replaceAll('_', ' ')}: ${valueText(x, names)}`)
      .join(', ');
  if (typeof v === 'string') return forwardName(v, names);
  return String(v);
}

/** What a call control step says (docs/calling.md; `{control, by, ...}`): title and sentence, null for another step. */
const CONTROL_WORDS: Record<string, { title: string; did: string }> = {
  mute: { title: 'Muted', did: 'muted the microphone' },
  unmute: { title: 'Unmuted', did: 'turned the microphone back on' },
  hold: { title: 'On hold', did: 'put the call on hold' },
  resume: { title: 'Resumed', did: 'took the call off hold' },
  dtmf: { title: 'Keypad', did: 'pressed' },
};

/**
 * What one stored step of a call was, in words. `status`: the call's status code when the step was
 * recorded (a step that is not a status change carries the call's status of that moment).
 * @returns `{title, text}`; `text` may be '' when the title says it all.
 */
export function describeCallEvent(status: number, detail: Detail, names: UserNames = NO_NAMES): { title: string; text: string } {
  const d = detail ?? {};
  const fw = (target: string) => forwardName(target, names);
  const by = num(d.by) !== null ? userName(d.by as number, names) : null;
  if (str(d.control) !== null) {
    const control = String(d.control);
    if (control === 'transfer') {
      const to = str(d.to);
      return { title: 'Transferred', text: `${by ?? 'The app'} transferred the call${to ? ` to ${fw(to)}` : ''}.` };
    }
    const w = CONTROL_WORDS[control];
    if (w) return { title: w.title, text: `${by ?? 'The app'} ${w.did}${control === 'dtmf' && str(d.digits) ? ` ${String(d.digits)}` : ''}.` };
  }
  if ('from' in d && 'to' in d && !('dial_status' in d)) {
    const where = [str(d.from_city), str(d.from_state)].filter(Boolean).join(', ');
    const text = `From ${formatPhone(String(d.from))} to ${formatPhone(String(d.to))}${where ? ` · caller in ${where}` : ''}`;
    return status === CALL_STATUS.BLOCKED ? { title: 'Blocked caller rejected', text } : { title: 'Call received', text };
  }
  if (Array.isArray(d.dialing)) {
    const list = (d.dialing as unknown[]).map((x) => fw(String(x)));
    return { title: list.length > 1 ? 'Ringing forwards' : 'Ringing forward', text: list.length ? `Ringing ${list.join(', ')}` : 'Ringing' };
  }
  if (d.reason === 'no-answer') return { title: 'No answer', text: 'Nobody answered and voicemail is off.' };
  if (d.reason === 'closed') return { title: 'Missed (closed)', text: 'The call came outside business hours and voicemail is off.' };
  if (d.voicemail === 'prompted') return { title: 'Voicemail greeting', text: 'The caller was asked to leave a message.' };
  if (num(d.voicemail_id) !== null) {
    const s = num(d.duration_s);
    return { title: 'Voicemail left', text: s !== null ? `A ${formatSeconds(s)} message was recorded.` : 'A message was recorded.' };
  }
  if (d.invalid === true || (str(d.digits) !== null && 'attempt' in d && !('declined_by' in d))) {
    const digits = str(d.digits) ?? '';
    const attempt = num(d.attempt);
    // `next` (docs/telephony.md "Menu replays and fallback"): what the menu did about it.
    const then = MENU_NEXT_WORDS[String(d.next)];
    const what = digits ? 'Invalid choice' : 'No choice';
    return {
      title: then ? `${what}: ${then.title}` : 'Invalid menu choice',
      text: `${digits ? `The caller pressed ${digits}` : 'The caller pressed nothing'}${attempt !== null ? ` (attempt ${attempt})` : ''}, which is not a menu option.${then ? ` ${then.text}` : ''}`,
    };
  }
  if (num(d.extension) !== null && status === CALL_STATUS.EXTENSION_SELECTED) {
    const label = str(d.label);
    return { title: 'Menu choice', text: `The caller pressed ${String(d.extension)}${label ? ` (${label})` : ''}.` };
  }
  if ('answered_by' in d) {
    const who = num(d.answered_by) !== null ? userName(d.answered_by as number, names) : str(d.confirmed_by) ? fw(String(d.confirmed_by)) : null;
    return { title: 'Answered in the app', text: `Answered in the browser${who ? ` by ${who}` : ''}.` };
  }
  if (str(d.confirmed_by) !== null) return { title: 'Forward accepted', text: `${fw(String(d.confirmed_by))} answered and accepted the call.` };
  if (str(d.declined_by) !== null)
    return {
      title: 'Forward declined',
      text: `${fw(String(d.declined_by))} answered but did not accept the call${str(d.digits) ? ` (pressed ${String(d.digits)})` : ''}.`,
    };
  if (str(d.dial_status) !== null) {
    const ds = String(d.dial_status);
    if (ds === 'completed' || ds === 'answered') {
      const to = str(d.forwarded_to);
      const talk = num(d.dial_duration_s);
      return {
        title: 'Connected',
        text: `${to ? `Answered by ${to.split(', ').map(fw).join(' or ')}` : 'Answered'}${talk ? ` · talked ${formatSeconds(talk)}` : ''}.`,
      };
    }
    const idx = num(d.forward_index);
    return {
      title: ds === 'busy' ? 'Forward busy' : 'Forward not answered',
      text: `The forward${idx !== null ? ` (step ${idx + 1})` : ''} was ${DIAL_WORDS[ds] ?? ds}.`,
    };
  }
  if (str(d.call_status) !== null) {
    const s = num(d.duration_s);
    const how = CALL_END_WORDS[String(d.call_status)] ?? String(d.call_status);
    const title = status === CALL_STATUS.HANGUP ? 'Caller hung up' : 'Call ended';
    return { title, text: `The call ${how === 'completed' ? 'ended' : `ended: ${how}`}${s !== null ? ` after ${formatSeconds(s)}` : ''}.` };
  }
  if ('placed_by' in d) {
    const who = num(d.placed_by) !== null ? ` by ${userName(d.placed_by as number, names)}` : '';
    return { title: 'Call placed', text: `Placed from the app${who}${str(d.to) ? ` to ${formatPhone(String(d.to))}` : ''}.` };
  }
  const entries = Object.entries(d).filter(([, v]) => v !== null && v !== undefined && v !== '');
  return { title: 'Call step', text: entries.map(([k, v]) => `${k.replaceAll('_', ' ')}: ${valueText(v, names)}`).join(' · ') };
}

/**
 * Every forward the call rang, in order, with its outcome, from the stored steps: a `dialing`
 * step starts a round (each target `ringing`); `declined_by`/`confirmed_by` settle one target; a
 * failed Dial result settles the round's undecided targets (`busy`, `no-answer`, `failed`); a
 * connected result makes the accepted target (or the only one) `answered` and the others
 * `no-answer`. When several rang together, none confirmed and the carrier did not say which
 * answered, they are `unknown` (the call's `forwarded_to` then lists them all). A round still
 * undecided when the call ended (the caller hung up) becomes `no-answer`. An in-app identity `user_{id}` carries
 * `name`, the person's name from `names` ("user 12" when unknown).
 */
export function forwardOutcomes(events: StoredEvent[], ended: boolean, names: UserNames = NO_NAMES): CallForward[] {
  const out = forwardRounds(events, ended);
  // An in-app identity carries the person's name (`name`), as the reports and the CSV show it.
  for (const f of out) {
    const id = userIdOfTarget(f.number);
    if (id !== null) f.name = userName(id, names);
  }
  return out;
}

function forwardRounds(events: StoredEvent[], ended: boolean): CallForward[] {
  const out: CallForward[] = [];
  let round: CallForward[] = [];
  const settleRound = (outcome: CallForward['outcome']) => {
    for (const f of round) if (f.outcome === 'ringing') f.outcome = outcome;
  };
  for (const e of events) {
    const d = (e.detail ?? {}) as Detail;
    if (Array.isArray(d.dialing)) {
      settleRound('no-answer');
      round = (d.dialing as unknown[]).map((x) => ({ number: String(x), outcome: 'ringing' as const, rang_at: e.created_at.toISOString() }));
      out.push(...round);
      continue;
    }
    const declined = str(d.declined_by);
    if (declined) {
      const f = round.find((x) => x.number === declined && x.outcome === 'ringing');
      if (f) f.outcome = 'declined';
      continue;
    }
    const ds = str(d.dial_status);
    const confirmed = str(d.confirmed_by);
    if (ds === 'completed' || ds === 'answered' || (confirmed && 'answered_by' in d)) {
      const who = confirmed ?? [...round].reverse().find((x) => x.outcome === 'answered')?.number ?? (round.length === 1 ? round[0]!.number : null);
      if (who) {
        let f = round.find((x) => x.number === who);
        if (!f) {
          f = { number: who, outcome: 'answered', rang_at: e.created_at.toISOString() };
          out.push(f);
          round.push(f);
        }
        f.outcome = 'answered';
        settleRound('no-answer');
      } else {
        settleRound('unknown');
      }
      continue;
    }
    if (confirmed) {
      // Accepted with the confirm key: answered once the Dial reports completed (kept until then).
      const f = round.find((x) => x.number === confirmed);
      if (f) f.outcome = 'answered';
      continue;
    }
    if (ds) {
      for (const f of round) if (f.outcome === 'answered') f.outcome = 'no-answer';
      settleRound(ds === 'busy' ? 'busy' : ds === 'failed' ? 'failed' : 'no-answer');
      round = [];
    }
  }
  if (ended) settleRound('no-answer');
  return out;
}

// ---------------------------------------------------------------- the call detail's spec fields

/** Words of an enumeration value: "appt_booked" → "Appt booked", "body_shop" → "Body shop". */
function optionLabel(value: string): string {
  const words = value.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The choices of call scoring (`ascOptions`; docs/domain-decisions.md "Call scoring options"):
 * outcomes and departments with their exact values (spec 002 §3), qualifications by id (spec 001 §3).
 */
export const ASC_OPTIONS: AscOptions = Object.freeze({
  outcomes: CALL_OUTCOMES.map((value) => ({ value, label: optionLabel(value) })),
  departments: DEPARTMENT_TYPES.map((value) => ({ value, label: value === 'hr' ? 'HR' : optionLabel(value) })),
  qualifications: [
    { id: 1, label: 'Qualified' },
    { id: 2, label: 'Not qualified' },
    { id: 3, label: 'Lead' },
  ],
}) as AscOptions;

/** The names in a call detail's `include` (a comma-separated text or a list), trimmed. */
export function includeList(include: string | string[] | undefined): string[] {
  const parts = Array.isArray(include) ? include : (include ?? '').split(',');
  return parts.map((s) => s.trim()).filter(Boolean);
}

/**
 * The call detail as answered (spec 001 §3 "Call", §7 "GET /calls/{id}"): `outbound` 1 for a call the
 * business placed (direction "outbound"), else 0, and `isInbound` derived from it (`outbound === 0`);
 * `ascOptions` added when `include` names it. History, note and eavAttributeValues are always there.
 */
export function callDetailView<T extends { direction: string }>(
  detail: T,
  include: readonly string[] = [],
): T & { outbound: 0 | 1; isInbound: boolean; ascOptions?: AscOptions } {
  const outbound: 0 | 1 = detail.direction === 'outbound' ? 1 : 0;
  return { ...detail, outbound, isInbound: outbound === 0, ...(include.includes('ascOptions') ? { ascOptions: ASC_OPTIONS } : {}) };
}
