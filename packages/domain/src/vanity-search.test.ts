import { describe, it, expect } from 'vitest';
import { vanitySearchPattern } from './vanity-search.js';

describe('vanitySearchPattern (letters convert to keypad digits)', () => {
  it('converts letters to keypad digits, any case', () => {
    expect(vanitySearchPattern('FLOWERS')).toBe('3569377');
    expect(vanitySearchPattern('cake')).toBe('2253');
    expect(vanitySearchPattern('555-CAKE')).toBe('5552253');
  });

  it('drops separators and the US prefix', () => {
    expect(vanitySearchPattern('1-800-FLOWERS')).toBe('8003569377');
    expect(vanitySearchPattern('+1 (800) GOT-MILK')).toBe('8004686455');
    expect(vanitySearchPattern('(212) 555-0123')).toBe('2125550123');
  });

  it('keeps * wildcards and drops other characters', () => {
    expect(vanitySearchPattern('8**')).toBe('8**');
    expect(vanitySearchPattern('212*CAKE')).toBe('212*2253');
    expect(vanitySearchPattern('hi!.#')).toBe('44');
    expect(vanitySearchPattern('   ')).toBe('');
  });

  it('keeps a leading 1 that is not a US prefix', () => {
    expect(vanitySearchPattern('1FLOWER')).toBe('1356937');
  });
});
