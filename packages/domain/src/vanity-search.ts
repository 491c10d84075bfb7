/**
 * Number search by vanity text (spec 002 §5 "Letters convert to keypad digits"; docs/telephony.md
 * "Number search": letters convert to keypad digits and the vanity rules hold).
 */
import { vanityToDigits } from './vanity.js';

/**
 * The digit pattern to search available numbers with, from text a person typed (e.g. "FLOWERS",
 * "1-800-GOT-MILK", "212*CAKE"): letters become keypad digits (via `vanityToDigits`), "*" stays as a
 * one-digit wildcard, every other character is dropped, and a leading US prefix ("+1", or "1" before
 * ten more characters) is removed so the pattern matches national numbers.
 *
 * @param input the search text
 * @returns e.g. "FLOWERS" → "3569377", "1-800-FLOWERS" → "8003569377"; "" when nothing usable remains
 */
export function vanitySearchPattern(input: string): string {
  const text = input.trim();
  let pattern = '';
  for (const ch of text) pattern += ch === '*' ? '*' : vanityToDigits(ch).replace(/\D/g, '');
  if (/^\+1/.test(text.replace(/[\s()-]/g, '')) && pattern.startsWith('1')) return pattern.slice(1);
  return pattern.length === 11 && pattern.startsWith('1') ? pattern.slice(1) : pattern;
}
