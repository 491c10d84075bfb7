/**
 * The call-flow engine (issue 2 "Inbound call flow from routing data"; foundation §3): pure
 * functions from a number's routing setup and what the carrier reported to the carrier-neutral
 * `CallFlowStep`s the adapter renders. No I/O; the calls module stores what happened.
 *
 * State travels in the action URLs (`ext`, forward index `i`, menu `attempt`), so every webhook
 * can be answered from the number's routing data alone. Wording: docs/telephony.md "Menu wording".
 */
import { SCHEDULE_PRESET, cleanForwards, confirmKeyToDtmf, isOpenAt, type RouteEntry, type Schedule } from '@switchboard/domain';
import type { CallFlowStep } from '../../carriers/carrier.port.js';

export const MENU_TIMEOUT_S = 5;
export const VOICEMAIL_MAX_LENGTH_S = 120;
export const TEXT = {
  voicemailGreeting: 'Please leave a message after the tone.',
  closed: 'We are currently closed. Please call again during business hours. Goodbye.',
  noAnswer: 'Sorry, no one is available to take your call. Please try again later. Goodbye.',
  invalidChoice: 'Sorry, that is not a valid choice.',
  goodbye: 'Goodbye.',
  thanks: 'Thank you for your message. Goodbye.',
  acceptPrompt: (key: string) => `Press ${key} to accept the call.`,
} as const;

/** Absolute webhook URLs the engine points the carrier at. */
export type FlowUrls = {
  gather(attempt: number): string;
  dial(ext: number, index: number): string;
  whisper(ext: number): string;
  recording(ext: number): string;
};

/** Builds FlowUrls under `${base}/webhooks/twilio/voice` for the call `callSid`. */
export function flowUrls(base: string, callSid: string): FlowUrls {
  const v = `${base}/webhooks/twilio/voice`;
  return {
    gather: (attempt) => `${v}/gather?attempt=${attempt}`,
    dial: (ext, index) => `${v}/dial?ext=${ext}&i=${index}`,
    whisper: (ext) => `${v}/whisper?call=${encodeURIComponent(callSid)}&ext=${ext}`,
    recording: (ext) => `${v}/recording?ext=${ext}`,
  };
}

/** The routing data of a number the engine reads. */
export type RoutingNumber = { number: string; routes: RouteEntry[]; schedule: Schedule };

/** What the engine decided, and the call status it implies (codes of foundation §3). */
export type Decision = {
  steps: CallFlowStep[];
  /** Where the call went: menu, dialing, voicemail prompt, or ended. */
  outcome: 'menu' | 'dial' | 'voicemail' | 'closed' | 'no-answer' | 'connected' | 'hangup';
  entry?: RouteEntry;
  /** Forwards being rung by this step (dial). */
  dialing?: string[];
};

function voicemail(entry: RouteEntry, urls: FlowUrls): Decision {
  return {
    outcome: 'voicemail',
    entry,
    steps: [
      { kind: 'say', text: TEXT.voicemailGreeting },
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
function unanswered(entry: RouteEntry, urls: FlowUrls): Decision {
  return entry.voicemail_enabled ? voicemail(entry, urls) : noAnswer(entry);
}

/** Whether a schedule sends calls straight to voicemail (preset 5 Direct Voicemail). */
function isDirectVoicemail(schedule: Schedule | undefined): boolean {
  return Number(schedule?.preset) === SCHEDULE_PRESET.DIRECT_VOICEMAIL;
}

/** The menu: "For Sales, press 1. For Support, press 2." (unlabelled entries: "For extension 3"). */
export function menuText(entries: RouteEntry[]): string {
  return entries.map((e) => `For ${e.label.trim() || `extension ${e.extension}`}, press ${e.extension}.`).join(' ');
}

function menu(entries: RouteEntry[], attempt: number, urls: FlowUrls, prefix?: string): Decision {
  const numDigits = Math.max(1, ...entries.map((e) => String(e.extension).length));
  const prompt: Array<{ kind: 'say'; text: string }> = [];
  if (prefix) prompt.push({ kind: 'say', text: prefix });
  prompt.push({ kind: 'say', text: menuText(entries) });
  return { outcome: 'menu', steps: [{ kind: 'gather', numDigits, timeoutS: MENU_TIMEOUT_S, action: urls.gather(attempt), prompt }] };
}

/**
 * Steps for an entry once chosen (or when it is the only one): closed entry schedule or Direct
 * Voicemail → voicemail/closed; type voicemail → voicemail; no forwards → unanswered; sequential
 * → the forward at `index`; otherwise all forwards at once (standard, simultaneous, staggered,
 * geo and in-app calling are rung simultaneously in this cut).
 */
export function entryStep(entry: RouteEntry, ctx: { businessNumber: string; now: Date; urls: FlowUrls }, index = 0): Decision {
  if (isDirectVoicemail(entry.schedule)) return voicemail(entry, ctx.urls);
  if (entry.schedule && !isOpenAt(entry.schedule, ctx.now)) return closed(entry, ctx.urls);
  if (entry.type === 'voicemail') return voicemail(entry, ctx.urls);
  const forwards = cleanForwards(entry.forwards).map((f) => f.number);
  if (forwards.length === 0) return unanswered(entry, ctx.urls);
  const sequential = entry.type === 'sequential';
  if (sequential && index >= forwards.length) return unanswered(entry, ctx.urls);
  const dialing = sequential ? [forwards[index]!] : forwards;
  const confirm = confirmKeyToDtmf(entry.confirm_key) !== null;
  return {
    outcome: 'dial',
    entry,
    dialing,
    steps: [{
      kind: 'dial',
      numbers: dialing.map((number) => (confirm ? { number, url: ctx.urls.whisper(entry.extension) } : { number })),
      timeoutS: entry.timeout,
      action: ctx.urls.dial(entry.extension, sequential ? index : 0),
      ...(entry.caller_id_pass_thru ? {} : { callerId: ctx.businessNumber }),
    }],
  };
}

function closed(entry: RouteEntry, urls: FlowUrls): Decision {
  if (entry.voicemail_enabled) return voicemail(entry, urls);
  return { outcome: 'closed', entry, steps: [{ kind: 'say', text: TEXT.closed }, { kind: 'hangup' }] };
}

/**
 * First answer to an inbound call (after the blocked-caller check): the number's schedule
 * (closed → voicemail or closed message; Direct Voicemail → voicemail, using the first entry's
 * settings), then a menu when there are several entries, else the only entry.
 */
export function decideInboundStep(number: RoutingNumber, now: Date, urls: FlowUrls): Decision {
  const entries = number.routes;
  const first = entries[0];
  if (!first) return noAnswer(undefined);
  if (isDirectVoicemail(number.schedule)) return voicemail(first, urls);
  if (!isOpenAt(number.schedule, now)) return closed(first, urls);
  if (entries.length > 1) return menu(entries, 1, urls);
  return entryStep(first, { businessNumber: number.number, now, urls });
}

/**
 * The caller's menu choice. Valid digits → that entry's step; no or invalid input → the menu
 * once more (attempt 2), then "Goodbye" and hang up.
 */
export function decideMenuChoice(number: RoutingNumber, digits: string, attempt: number, now: Date, urls: FlowUrls): Decision {
  const entry = digits ? number.routes.find((e) => String(e.extension) === digits.replace(/#$/, '')) : undefined;
  if (entry) return entryStep(entry, { businessNumber: number.number, now, urls });
  if (attempt < 2) return menu(number.routes, attempt + 1, urls, TEXT.invalidChoice);
  return { outcome: 'hangup', steps: [{ kind: 'say', text: TEXT.goodbye }, { kind: 'hangup' }] };
}

/**
 * After a Dial: answered → nothing more (the call is connected); otherwise the next forward of a
 * sequential entry, then voicemail when enabled, else the no-answer message.
 */
export function decideAfterDial(number: RoutingNumber, entry: RouteEntry, dialStatus: string, index: number, now: Date, urls: FlowUrls): Decision {
  if (dialStatus === 'completed' || dialStatus === 'answered') return { outcome: 'connected', entry, steps: [{ kind: 'hangup' }] };
  if (entry.type === 'sequential') {
    const forwards = cleanForwards(entry.forwards);
    if (index + 1 < forwards.length) return entryStep(entry, { businessNumber: number.number, now, urls }, index + 1);
  }
  return unanswered(entry, urls);
}

/** The whisper a forward hears on answering: the entry's whisper text, then the accept prompt. */
export function whisperSteps(entry: RouteEntry, confirmAction: string): CallFlowStep[] {
  const key = confirmKeyToDtmf(entry.confirm_key);
  if (key === null) return [];
  const prompt: Array<{ kind: 'say'; text: string }> = [];
  if (entry.confirm_whisper.trim()) prompt.push({ kind: 'say', text: entry.confirm_whisper.trim() });
  prompt.push({ kind: 'say', text: TEXT.acceptPrompt(key) });
  return [
    { kind: 'gather', numDigits: key.length, timeoutS: entry.confirm_key_wait, action: confirmAction, prompt },
    { kind: 'hangup' },
  ];
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
