/**
 * Vanity numbers such as "1-800-FLOWERS" (foundation §5 "Vanity number", "Vanity letters map to keypad digits").
 */

/** Keypad letters per digit (foundation §5). */
export const KEYPAD_LETTERS = {
  '2': 'abc',
  '3': 'def',
  '4': 'ghi',
  '5': 'jkl',
  '6': 'mno',
  '7': 'pqrs',
  '8': 'tuv',
  '9': 'wxyz',
} as const;

const LETTER_TO_DIGIT: ReadonlyMap<string, string> = new Map(
  Object.entries(KEYPAD_LETTERS).flatMap(([digit, letters]) => [...letters].map((letter) => [letter, digit] as const)),
);

/**
 * Whether the text is a vanity number (foundation §5). Dashes, parentheses and spaces are stripped
 * first; the rest must be an optional US prefix ("+1" or "1"), a 3-digit area code, then 3 to 11
 * letters or digits, and the last 7 characters must include at least one letter.
 *
 * @param input e.g. "1-800-FLOWERS", "(212) 555-CAKE"
 * @returns true for a vanity number
 */
export function isVanityNumber(input: string): boolean {
  const text = input.replace(/[-()\s]/g, '');
  if (!/^(?:\+1|1)?\d{3}[A-Za-z0-9]{3,11}$/.test(text)) return false;
  return /[A-Za-z]/.test(text.slice(-7));
}

/**
 * Converts vanity letters to keypad digits (foundation §5): abc=2, def=3, ghi=4, jkl=5, mno=6,
 * pqrs=7, tuv=8, wxyz=9, case-insensitive. Digits, "+", "-", "(", ")" and spaces are kept; every
 * other character is dropped.
 *
 * @param input e.g. "1-800-FLOWERS"
 * @returns e.g. "1-800-3569377"
 */
export function vanityToDigits(input: string): string {
  let out = '';
  for (const ch of input) {
    const digit = LETTER_TO_DIGIT.get(ch.toLowerCase());
    if (digit !== undefined) out += digit;
    else if (/[\d+\-() ]/.test(ch)) out += ch;
  }
  return out;
}
