import { describe, it, expect } from 'vitest';
import { TOLL_FREE_AREA_CODES, TOLL_FREE_SEARCH_PREFIXES, isTollFree } from './toll-free.js';

describe('toll-free constants (foundation §5, spec 002 §9)', () => {
  it('lists the toll-free area codes', () => {
    expect([...TOLL_FREE_AREA_CODES]).toEqual(['800', '833', '844', '855', '866', '877', '888']);
  });

  it('offers the search prefixes in the spec order, wildcard first', () => {
    expect([...TOLL_FREE_SEARCH_PREFIXES]).toEqual(['8**', '800', '888', '877', '866', '855', '844', '833']);
  });
});

describe('isTollFree (foundation §5)', () => {
  it('accepts every toll-free area code', () => {
    for (const code of TOLL_FREE_AREA_CODES) expect(isTollFree(`${code}5550123`)).toBe(true);
  });

  it('strips dashes, parentheses and spaces first', () => {
    expect(isTollFree('(800) 555-0123')).toBe(true);
    expect(isTollFree('888 555 0123')).toBe(true);
    expect(isTollFree('8-3-3-5-5-5-0-1-2-3')).toBe(true);
  });

  it('allows an optional leading +1 or 1', () => {
    expect(isTollFree('+18005550123')).toBe(true);
    expect(isTollFree('1-800-555-0123')).toBe(true);
    expect(isTollFree('+1 (877) 555-0123')).toBe(true);
  });

  it('rejects other area codes', () => {
    expect(isTollFree('2125550123')).toBe(false);
    expect(isTollFree('8115550123')).toBe(false);
    expect(isTollFree('+18995550123')).toBe(false);
  });

  it('rejects wrong lengths, other prefixes and other characters', () => {
    expect(isTollFree('800555012')).toBe(false);
    expect(isTollFree('80055501234')).toBe(false);
    expect(isTollFree('+28005550123')).toBe(false);
    expect(isTollFree('118005550123')).toBe(false);
    expect(isTollFree('800.555.0123')).toBe(false);
    expect(isTollFree('1-800-FLOWERS')).toBe(false);
    expect(isTollFree('')).toBe(false);
  });
});
