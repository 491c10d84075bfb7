/**
 * The call-flow engine (foundation, spec 000 §3 routing entries and §4 call states; docs/telephony.md "Call flow"): pure
 * functions from a number's routing setup and what the carrier reported to the carrier-neutral
 * `CallFlowStep`s the adapter renders. No I/O; the calls module stores what happened.
 *
 * State travels in the action URLs (`ext`, forward index `i`, menu `attempt`), so every webhook
 * can be answered from the number's routing data alone. Wording: docs/telephony.md "Menu wording".
 */
import {
  SCHEDULE_PRESET,
  cleanForwards,
  confirmKeyToDtmf,
  isOpenAt,
  matchGeoForward,
  nextRoundRobin,
  type RouteEntry,
  type Schedule,
} from '@switchboard/domain';
import type { CallFlowStep, CarrierPort } from '../../carriers/carrier.port.js';

export const MENU_TIMEOUT_S = 5;
/**
 * Stagger: forwards ring one after another; each leg rings this long (s, or the entry's timeout
 * when shorter) before the next forward is tried. A carrier `<Dial>` cannot add legs to a dial in
 * progress, so stagger is sequential ringing with this shorter per-leg timeout.
 */
export const STAGGER_LEG_TIMEOUT_S = 10;
export const VOICEMAIL_MAX_LENGTH_S = 120;
export const TEXT = {
  voicemailGreeting: 'Please leave a message after the tone.',
  closed: 'We are currently closed. Please call again during business hours. Goodbye.',
  noAnswer: 'Sorry, no one is available to take your call. Please try again later. Goodbye.',
  invalidChoice: 'Sorry, that is not a valid choice.',
  noChoice: 'Sorry, we did not get your choice.',
  fallbackConnect: 'Please hold while we connect your call.',
  goodbye: 'Goodbye.',
  thanks: 'Thank you for your message. Goodbye.',
  acceptPrompt: (key: string) => `Press ${key} to accept the call.`,
  transferUnanswered: 'The person you were transferred to is not available.',
  tryLater: 'Please try again later. Goodbye.',
} as const;

/** Absolute webhook URLs the engine points the carrier at. */
export type FlowUrls = {
  gather(attempt: number): string;
  /** `rr` = the round-robin cursor the call took (kept so later legs rotate the same way). */
  dial(ext: number, index: number, rr?: number): string;
  whisper(ext: number): string;
  recording(ext: number): string;
};

/** Builds FlowUrls for the call `callSid` with the carrier's webhook URLs (`carrier.webhookUrl`). */
export function flowUrls(carrier: Pick<CarrierPort, 'webhookUrl'>, callSid: string): FlowUrls {
  return {
    gather: (attempt) => carrier.webhookUrl('voice.gather', { attempt }),
    dial: (ext, index, rr) => carrier.webhookUrl('voice.dial', { ext, i: index, rr }),
    whisper: (ext) => carrier.webhookUrl('voice.whisper', { call: callSid, ext }),
    recording: (ext) => carrier.webhookUrl('voice.recording', { ext }),
  };
}

/** Manual open/closed override of a number (`PUT /api/numbers/{id}/override`). */
export type NumberOverride = { mode: 'auto' | 'open' | 'closed'; until: Date | null };

/** Greeting kinds played in the flow: the number's menu prompt (extension 0), an entry's voicemail greeting and whisper. */
export type GreetingKind = 'menu' | 'voicemail' | 'whisper';

/**
 * What the engine needs beyond the stored routes, loaded per call by the calls module:
 * holidays (company, "YYYY-MM-DD"), the number's override, greeting audio URLs by
 * `${extension}:${kind}` and by greeting id (hold music), the caller's state, the round-robin
 * cursor this call took, and the in-app identities of the company's active users.
 */
export type RoutingExtras = {
  holidays?: readonly string[];
  override?: NumberOverride | null;
  greetingUrls?: Readonly<Record<string, string>>;
  greetingUrlsById?: Readonly<Record<number, string>>;
  fromState?: string | null;
  roundRobinCursor?: number;
  activeClients?: readonly string[];
};

/** Where a menu sends the caller once its replays are used up (docs/telephony.md "Menu replays and fallback"). */
export type MenuFallback = 'first' | 'voicemail' | 'hangup';

/**
 * A number's menu settings (migration 0013): `replays` how many times the menu is played again
 * after an invalid or missing choice (0 to 5), then `fallback`: 'first' connects the first
 * extension, 'voicemail' takes a message for the first extension, 'hangup' says goodbye.
 */
export type MenuSettings = { replays: number; fallback: MenuFallback };

/** Menu settings of a number that has none stored: two replays, then the first extension (as PBXs do). */
export const DEFAULT_MENU: Readonly<MenuSettings> = Object.freeze({ replays: 2, fallback: 'first' });

/** The routing data of a number the engine reads. `menu`: DEFAULT_MENU when absent. */
export type RoutingNumber = { number: string; routes: RouteEntry[]; schedule: Schedule; menu?: MenuSettings; extras?: RoutingExtras };

/** The in-app-calling identity of a user (`<Client>` name). */
export function clientIdentity(userId: number): string {
  return `user_${userId}`;
}

/**
 * Whether the number takes calls now. Order (docs/telephony.md "Engine additions"): the manual override (open/closed, until
 * its `until` passes) → company holidays → the schedule, read in its IANA zone (DST-correct).
 * Direct Voicemail (preset 5) counts as closed.
 */
export function isNumberOpen(number: RoutingNumber, now: Date, schedule: Schedule = number.schedule): boolean {
  const o = activeOverride(number.extras?.override, now);
  if (o) return o === 'open';
  return isOpenAt(schedule, now, number.extras?.holidays ?? []);
}

function activeOverride(o: NumberOverride | null | undefined, now: Date): 'open' | 'closed' | null {
  if (!o || o.mode === 'auto') return null;
  if (o.until && o.until.getTime() <= now.getTime()) return null;
  return o.mode;
}

function greetingUrl(number: RoutingNumber | undefined, ext: number, kind: GreetingKind): string | undefined {
  return number?.extras?.greetingUrls?.[`${ext}:${kind}`];
}

/** What the engine decided, and the call status it implies (codes of foundation §3). */
export type Decision = {
  steps: CallFlowStep[];
  /** Where the call went: menu, dialing, voicemail prompt, or ended. */
  outcome: 'menu' | 'dial' | 'voicemail' | 'closed' | 'no-answer' | 'connected' | 'hangup';
  entry?: RouteEntry;
  /** Forwards being rung by this step (dial). */
  dialing?: string[];
  /** Menu choices only: the choice was invalid or missing and the menu was played again ('replay') or its fallback taken. */
  menuNext?: 'replay' | MenuFallback;
};

function voicemail(entry: RouteEntry, urls: FlowUrls, number?: RoutingNumber): Decision {
  const greeting = greetingUrl(number, entry.extension, 'voicemail');
  return {
    outcome: 'voicemail',
    entry,
    steps: [
      greeting ? { kind: 'play', url: greeting } : { kind: 'say', text: TEXT.voicemailGreeting },
      { kind: 'record', action: urls.recording(entry.extension), maxLengthS: VOICEMAIL_MAX_LENGTH_S, playBeep: true },
      { kind: 'say', text: TEXT.goodbye },
      { kind: 'hangup' },
    ],
  };
}

function noAnswer(entry: RouteEntry | undefined): Decision {
  return { outcome: 'no-answer', entry, steps: [{ kind: 'say', text: TEXT.noAnswer }, { kind: 'hangup' }] };
}

/** Voicemail when the entry takes messages, otherwise the no-answer message. */
function unanswered(entry: RouteEntry, urls: FlowUrls, number?: RoutingNumber): Decision {
  return entry.voicemail_enabled ? voicemail(entry, urls, number) : noAnswer(entry);
}

/** Whether a schedule sends calls straight to voicemail (preset 5 Direct Voicemail). */
function isDirectVoicemail(schedule: Schedule | undefined): boolean {
  return Number(schedule?.preset) === SCHEDULE_PRESET.DIRECT_VOICEMAIL;
}

/** The menu: "For Sales, press 1. For Support, press 2." (unlabelled entries: "For extension 3"). */
export function menuText(entries: RouteEntry[]): string {
  return entries.map((e) => `For ${e.label.trim() || `extension ${e.extension}`}, press ${e.extension}.`).join(' ');
}

/** The menu; a greeting assigned to (number, extension 0, 'menu') replaces the spoken menu text. */
function menu(number: RoutingNumber, attempt: number, urls: FlowUrls, prefix?: string): Decision {
  const entries = number.routes;
  const numDigits = Math.max(1, ...entries.map((e) => String(e.extension).length));
  const prompt: Array<{ kind: 'say'; text: string } | { kind: 'play'; url: string }> = [];
  if (prefix) prompt.push({ kind: 'say', text: prefix });
  const greeting = greetingUrl(number, 0, 'menu');
  prompt.push(greeting ? { kind: 'play', url: greeting } : { kind: 'say', text: menuText(entries) });
  return { outcome: 'menu', steps: [{ kind: 'gather', numDigits, timeoutS: MENU_TIMEOUT_S, action: urls.gather(attempt), prompt }] };
}

/** Whether an entry rings its forwards one at a time (sequential, stagger, round robin). */
function ringsOneByOne(entry: RouteEntry): boolean {
  return entry.type === 'sequential' || entry.stagger || Boolean(entry.round_robin);
}

/**
 * The forwards an entry rings for this call, in order: geo entries (type geo or
 * geo_by_state_enabled) keep the forwards matching the caller's state (`matchGeoForward`, static
 * fallback when enabled); a round-robin entry is rotated by the call's cursor (`nextRoundRobin`).
 */
export function forwardsFor(entry: RouteEntry, extras: RoutingExtras = {}, rr?: number): string[] {
  let forwards = cleanForwards(entry.forwards).map((f) => ({ number: f.number, states: f.states ?? null }));
  if (entry.type === 'geo' || entry.geo_by_state_enabled) forwards = matchGeoForward(extras.fromState ?? null, forwards, entry.geo_by_state_static_fallback);
  if (entry.round_robin) forwards = nextRoundRobin(forwards, (rr ?? extras.roundRobinCursor ?? 0) - 1).forwards;
  return forwards.map((f) => f.number);
}

type StepCtx = { businessNumber: string; now: Date; urls: FlowUrls; number?: RoutingNumber };

/**
 * Steps for an entry once chosen (or when it is the only one): override/holidays/entry schedule
 * closed or Direct Voicemail → voicemail/closed; type voicemail → voicemail; in-app-calling →
 * `<Dial><Client>` per active user (none → unanswered); otherwise the forwards (geo-filtered,
 * round-robin rotated): sequential, stagger and round robin ring the forward at `index` (stagger
 * with STAGGER_LEG_TIMEOUT_S), standard/simultaneous/geo ring all at once. The on-hold greeting
 * (`onhold_music_id`) plays before the dial; `rr` is the round-robin cursor of this call.
 */
export function entryStep(entry: RouteEntry, ctx: StepCtx, index = 0, rr?: number): Decision {
  const number = ctx.number;
  const override = activeOverride(number?.extras?.override, ctx.now);
  if (override !== 'open') {
    if (isDirectVoicemail(entry.schedule)) return voicemail(entry, ctx.urls, number);
    const open = override === 'closed' ? false : entry.schedule ? isOpenAt(entry.schedule, ctx.now, number?.extras?.holidays ?? []) : true;
    if (!open) return closed(entry, ctx.urls, number);
  }
  if (entry.type === 'voicemail') return voicemail(entry, ctx.urls, number);
  const hold: CallFlowStep[] = [];
  const holdUrl = entry.onhold_music_id !== null ? number?.extras?.greetingUrlsById?.[entry.onhold_music_id] : undefined;
  if (holdUrl && index === 0) hold.push({ kind: 'play', url: holdUrl });
  const callerId = entry.caller_id_pass_thru ? {} : { callerId: ctx.businessNumber };
  if (entry.type === 'in-app-calling') {
    const clients = [...(number?.extras?.activeClients ?? [])];
    if (clients.length === 0) return unanswered(entry, ctx.urls, number);
    return {
      outcome: 'dial',
      entry,
      dialing: clients,
      steps: [...hold, { kind: 'dial', numbers: [], clients, timeoutS: entry.timeout, action: ctx.urls.dial(entry.extension, 0), ...callerId }],
    };
  }
  const cursor = entry.round_robin ? (rr ?? number?.extras?.roundRobinCursor ?? 0) : undefined;
  const forwards = forwardsFor(entry, number?.extras ?? {}, cursor);
  if (forwards.length === 0) return unanswered(entry, ctx.urls, number);
  const oneByOne = ringsOneByOne(entry);
  if (oneByOne && index >= forwards.length) return unanswered(entry, ctx.urls, number);
  const dialing = oneByOne ? [forwards[index]!] : forwards;
  const confirm = confirmKeyToDtmf(entry.confirm_key) !== null;
  const timeoutS = entry.stagger ? Math.min(entry.timeout, STAGGER_LEG_TIMEOUT_S) : entry.timeout;
  return {
    outcome: 'dial',
    entry,
    dialing,
    steps: [
      ...hold,
      {
        kind: 'dial',
        numbers: dialing.map((n) => (confirm ? { number: n, url: ctx.urls.whisper(entry.extension) } : { number: n })),
        timeoutS,
        action: ctx.urls.dial(entry.extension, oneByOne ? index : 0, cursor),
        ...callerId,
      },
    ],
  };
}

function closed(entry: RouteEntry, urls: FlowUrls, number?: RoutingNumber): Decision {
  if (entry.voicemail_enabled) return voicemail(entry, urls, number);
  return { outcome: 'closed', entry, steps: [{ kind: 'say', text: TEXT.closed }, { kind: 'hangup' }] };
}

/**
 * First answer to an inbound call (after the blocked-caller check): the manual override, the
 * company holidays and the number's schedule (closed → voicemail or closed message; Direct
 * Voicemail → voicemail, using the first entry's settings; override "open" skips both), then a
 * menu when there are several entries, else the only entry.
 */
export function decideInboundStep(number: RoutingNumber, now: Date, urls: FlowUrls): Decision {
  const entries = number.routes;
  const first = entries[0];
  if (!first) return noAnswer(undefined);
  const override = activeOverride(number.extras?.override, now);
  if (override !== 'open') {
    if (isDirectVoicemail(number.schedule)) return voicemail(first, urls, number);
    if (!isNumberOpen(number, now)) return closed(first, urls, number);
  }
  if (entries.length > 1) return menu(number, 1, urls);
  return entryStep(first, { businessNumber: number.number, now, urls, number });
}

/**
 * The caller's menu choice at menu play `attempt` (1 = the first play). A valid extension → that
 * entry's step. No input (timeout) or an invalid digit → the menu again, prefixed with "Sorry, ..."
 * while replays are left (`menu.replays`, DEFAULT_MENU when unset: played 1 + replays times in
 * all), then the fallback: 'first' → the first extension's step ("Please hold..."), 'voicemail' →
 * the first extension's voicemail, 'hangup' → "Goodbye" and hang up. `menuNext` says which.
 */
export function decideMenuChoice(number: RoutingNumber, digits: string, attempt: number, now: Date, urls: FlowUrls): Decision {
  const entry = digits ? number.routes.find((e) => String(e.extension) === digits.replace(/#$/, '')) : undefined;
  if (entry) return entryStep(entry, { businessNumber: number.number, now, urls, number });
  const settings = number.menu ?? DEFAULT_MENU;
  const sorry = digits ? TEXT.invalidChoice : TEXT.noChoice;
  if (attempt <= settings.replays) return { ...menu(number, attempt + 1, urls, sorry), menuNext: 'replay' };
  const first = number.routes[0];
  if (settings.fallback === 'hangup' || !first)
    return { outcome: 'hangup', menuNext: 'hangup', steps: [{ kind: 'say', text: `${sorry} ${TEXT.goodbye}` }, { kind: 'hangup' }] };
  if (settings.fallback === 'voicemail') {
    const d = voicemail(first, urls, number);
    return { ...d, menuNext: 'voicemail', steps: [{ kind: 'say', text: sorry }, ...d.steps] };
  }
  const d = entryStep(first, { businessNumber: number.number, now, urls, number });
  return { ...d, menuNext: 'first', steps: [{ kind: 'say', text: `${sorry} ${TEXT.fallbackConnect}` }, ...d.steps] };
}

/**
 * After a Dial: answered → nothing more (the call is connected); otherwise the next forward of a
 * one-by-one entry (sequential, stagger, round robin; `rr` = the call's round-robin cursor), then
 * voicemail when enabled, else the no-answer message.
 */
export function decideAfterDial(number: RoutingNumber, entry: RouteEntry, dialStatus: string, index: number, now: Date, urls: FlowUrls, rr?: number): Decision {
  if (dialStatus === 'completed' || dialStatus === 'answered') return { outcome: 'connected', entry, steps: [{ kind: 'hangup' }] };
  if (ringsOneByOne(entry) && entry.type !== 'in-app-calling') {
    const forwards = forwardsFor(entry, number.extras ?? {}, rr);
    if (index + 1 < forwards.length) return entryStep(entry, { businessNumber: number.number, now, urls, number }, index + 1, rr);
  }
  return unanswered(entry, urls, number);
}

/**
 * After a blind transfer of an answered inbound call that nobody took (the transfer's Dial ended no-answer, busy or
 * failed; docs/calling.md "Transfer of an answered inbound call"): the caller hears that the person is not available,
 * then the voicemail of the extension the call came in on (`extension`; null or gone → the number's first entry) when
 * it takes messages, else "Please try again later. Goodbye." Outcome 'voicemail' or 'hangup'.
 */
export function decideAfterTransfer(number: RoutingNumber, extension: number | null, urls: FlowUrls): Decision {
  const entry = number.routes.find((e) => e.extension === extension) ?? number.routes[0];
  const sorry = { kind: 'say', text: TEXT.transferUnanswered } as const;
  if (entry?.voicemail_enabled) {
    const d = voicemail(entry, urls, number);
    return { ...d, steps: [sorry, ...d.steps] };
  }
  return { outcome: 'hangup', entry, steps: [sorry, { kind: 'say', text: TEXT.tryLater }, { kind: 'hangup' }] };
}

/**
 * The whisper a forward hears on answering: the entry's whisper greeting (when assigned) or
 * whisper text, then the accept prompt.
 */
export function whisperSteps(entry: RouteEntry, confirmAction: string, whisperGreetingUrl?: string): CallFlowStep[] {
  const key = confirmKeyToDtmf(entry.confirm_key);
  if (key === null) return [];
  const prompt: Array<{ kind: 'say'; text: string } | { kind: 'play'; url: string }> = [];
  if (whisperGreetingUrl) prompt.push({ kind: 'play', url: whisperGreetingUrl });
  else if (entry.confirm_whisper.trim()) prompt.push({ kind: 'say', text: entry.confirm_whisper.trim() });
  prompt.push({ kind: 'say', text: TEXT.acceptPrompt(key) });
  return [{ kind: 'gather', numDigits: key.length, timeoutS: entry.confirm_key_wait, action: confirmAction, prompt }, { kind: 'hangup' }];
}

/** The forward's key press: the confirm key connects (empty response), anything else hangs the leg up. */
export function confirmSteps(entry: RouteEntry, digits: string): { accepted: boolean; steps: CallFlowStep[] } {
  const key = confirmKeyToDtmf(entry.confirm_key);
  const accepted = key === null || digits === key;
  return { accepted, steps: accepted ? [] : [{ kind: 'hangup' }] };
}

/** After the voicemail was recorded. */
export function afterRecordingSteps(): CallFlowStep[] {
  return [{ kind: 'say', text: TEXT.thanks }, { kind: 'hangup' }];
}
