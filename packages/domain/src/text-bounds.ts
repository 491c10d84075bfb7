/**
 * Bounding text that comes from outside (docs/operations.md "Bounds on outside input"): carrier
 * webhooks, provider answers. Every adapter cuts what it is handed to its provider's documented
 * limit before the product reads it, so no later step (segment counting, keyword matching, search
 * indexing, e-mails, live events) ever sees more, and it keeps what was cut visible: the text's
 * original length. Linear in the input; never allocates more than the kept text. Pure; no I/O.
 */

/** A text cut to a bound. */
export interface BoundedText {
  /** The text, at most `max` characters (Unicode code points; a surrogate pair is never split). */
  text: string;
  /** Whether characters were cut off the end. */
  truncated: boolean;
  /** Characters (code points) of the text as received. */
  originalLength: number;
}

/**
 * Cuts `value` to its first `max` characters (Unicode code points, as carriers count them: an emoji
 * is one character, never split in half). Linear time: one pass over the input at most.
 *
 * @param value the received text (any length)
 * @param max the most characters kept (a non-negative integer)
 * @returns the kept text, whether it was cut and how many characters were received
 */
export function boundText(value: string, max: number): BoundedText {
  // Fewer UTF-16 units than the bound: fewer code points too (the common case, no counting).
  if (value.length <= max) return { text: value, truncated: false, originalLength: codePointLength(value) };
  let cut = -1;
  let points = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (points === max) cut = i;
        points++;
        i++;
        continue;
      }
    }
    if (points === max) cut = i;
    points++;
  }
  if (cut < 0) return { text: value, truncated: false, originalLength: points };
  return { text: value.slice(0, cut), truncated: true, originalLength: points };
}

/** Characters (Unicode code points) of `value`; linear, no allocation. */
export function codePointLength(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * `boundText(value, max).text` for fields whose cut need not be shown (identifiers, cities, a
 * provider's reason word): undefined and null pass through.
 */
export function clip<T extends string | null | undefined>(value: T, max: number): T {
  if (value === undefined || value === null || value.length <= max) return value;
  return boundText(value, max).text as T;
}
