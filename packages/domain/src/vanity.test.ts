import { describe, it, expect } from 'vitest';
import { KEYPAD_LETTERS, isVanityNumber, vanityToDigits } from './vanity.js';

describe('isVanityNumber (foundation §5)', () => {
  it('accepts an area code followed by letters, with or without a US prefix', () => {
    expect(isVanityNumber('1-800-FLOWERS')).toBe(true);
    expect(isVanityNumber('+1 800 FLOWERS')).toBe(true);
    expect(isVanityNumber('800FLOWERS')).toBe(true);
    expect(isVanityNumber('(212) 555-CAKE')).toBe(true);
    expect(isVanityNumber('800-got-milk')).toBe(true);
  });

  it('allows 3 to 11 letters or digits after the area code', () => {
    expect(isVanityNumber('800ABC')).toBe(true);
    expect(isVanityNumber('800AB')).toBe(false);
    expect(isVanityNumber('800ABCDEFGHIJK')).toBe(true); // 11 after the area code
    expect(isVanityNumber('800ABCDEFGHIJKL')).toBe(false); // 12
  });

  it('requires a letter among the last 7 characters', () => {
    expect(isVanityNumber('8005550123')).toBe(false);
    expect(isVanityNumber('800A5550123')).toBe(false); // the letter is 8th from the end
    expect(isVanityNumber('80055A0123')).toBe(true);
    expect(isVanityNumber('8005550AB3')).toBe(true);
  });

  it('rejects text that is not area code plus letters or digits', () => {
    expect(isVanityNumber('FLOWERS')).toBe(false);
    expect(isVanityNumber('80FLOWERS')).toBe(false);
    expect(isVanityNumber('800.FLOWERS')).toBe(false);
    expect(isVanityNumber('+2 800 FLOWERS')).toBe(false);
    expect(isVanityNumber('')).toBe(false);
  });
});

describe('vanityToDigits (foundation §5)', () => {
  it('maps letters to keypad digits, case-insensitively', () => {
    expect(vanityToDigits('abcdefghijklmnopqrstuvwxyz')).toBe('22233344455566677778889999');
    expect(vanityToDigits('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe('22233344455566677778889999');
  });

  it('keeps digits, +, -, parentheses and spaces', () => {
    expect(vanityToDigits('1-800-FLOWERS')).toBe('1-800-3569377');
    expect(vanityToDigits('+1 (800) got-milk')).toBe('+1 (800) 468-6455');
  });

  it('drops every other character', () => {
    expect(vanityToDigits('800.FLOWERS!')).toBe('8003569377');
    expect(vanityToDigits('a_b*c#')).toBe('222');
    expect(vanityToDigits('')).toBe('');
  });

  it('exposes the keypad table of the spec', () => {
    expect(KEYPAD_LETTERS).toEqual({ 2: 'abc', 3: 'def', 4: 'ghi', 5: 'jkl', 6: 'mno', 7: 'pqrs', 8: 'tuv', 9: 'wxyz' });
  });
});
