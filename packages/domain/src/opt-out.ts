/**
 * Opt-out, opt-in and help keywords of inbound SMS (docs/messaging.md "Opt-outs and compliance": STOP, STOPALL,
 * UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE and OPTOUT, a single-word reply in any case, unsubscribe the
 * sender from that company's messages and send one confirmation; START, YES and UNSTOP resubscribe;
 * HELP and INFO answer with the company's help text). Confirmation texts are designed
 * (docs/domain-decisions.md).
 */

/** Keywords that unsubscribe the sender (docs/messaging.md "Opt-outs and compliance"). */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
/** Keywords that resubscribe the sender (docs/messaging.md "Opt-outs and compliance"). */
export const OPT_IN_KEYWORDS = ['START', 'YES', 'UNSTOP'] as const;
/** Keywords answered with the company's help text (docs/messaging.md "Opt-outs and compliance"). */
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

/** What an inbound keyword asks for. */
export type KeywordKind = 'opt-out' | 'opt-in' | 'help';

/** Designed: reply sent once after an opt-out keyword. */
export const OPT_OUT_CONFIRMATION = 'You have been unsubscribed and will receive no further messages. Reply START to resubscribe.';
/** Designed: reply sent once after an opt-in keyword. */
export const OPT_IN_CONFIRMATION = 'You have been resubscribed and will receive messages again. Reply STOP to unsubscribe.';
/** Designed: help reply used when the company has no help text of its own. */
export const DEFAULT_HELP_TEXT = 'Reply STOP to unsubscribe or START to resubscribe. Msg & data rates may apply.';
/** Designed: refusal when a user sends from the inbox to an unsubscribed contact. */
export const RECIPIENT_UNSUBSCRIBED = 'This contact has unsubscribed and cannot receive messages until they reply START.';

const KIND_BY_KEYWORD: ReadonlyMap<string, KeywordKind> = new Map<string, KeywordKind>([
  ...OPT_OUT_KEYWORDS.map((k) => [k, 'opt-out'] as const),
  ...OPT_IN_KEYWORDS.map((k) => [k, 'opt-in'] as const),
  ...HELP_KEYWORDS.map((k) => [k, 'help'] as const),
]);

/**
 * Classifies an inbound SMS body (docs/messaging.md "Opt-outs and compliance"). The body counts only when it is a single word: surrounding
 * whitespace and punctuation are trimmed (so "Stop!", " stop. ", "'STOP'" count), case is ignored,
 * and any inner space or further text ("stop it", "please stop") makes it an ordinary message.
 *
 * @param body the inbound message text
 * @returns "opt-out", "opt-in", "help", or `null` for any other message
 */
export function classifyKeyword(body: string | null | undefined): KeywordKind | null {
  if (typeof body !== 'string') return null;
  const word = body.replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '').toUpperCase();
  if (word === '' || /\s/.test(word)) return null;
  return KIND_BY_KEYWORD.get(word) ?? null;
}
