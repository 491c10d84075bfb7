import { describe, it, expect } from 'vitest';
import { CONFIRM_KEY_CHOICES, CONFIRM_KEY_HASH, CONFIRM_KEY_STAR, confirmKeyToDtmf, suggestExtension, suggestExtensions } from './extensions.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('suggestExtension (foundation §5)', () => {
  it('suggests 0 when no extensions exist', () => {
    expect(suggestExtension([])).toBe(0);
  });

  it('suggests the highest existing extension plus 1', () => {
    expect(suggestExtension([1])).toBe(2);
    expect(suggestExtension([3, 1, 7])).toBe(8);
    expect(suggestExtension([0])).toBe(1);
  });

  it('allows 25 (only values above 25 fall back)', () => {
    expect(suggestExtension([24])).toBe(25);
    expect(suggestExtension([1, 25])).toBe(0);
  });

  it('suggests the lowest unused number from 0 to 24 when max+1 exceeds 25 and fewer than 25 exist', () => {
    expect(suggestExtension([30])).toBe(0);
    expect(suggestExtension([0, 1, 2, 40])).toBe(3);
    expect(suggestExtension([...range(0, 22), 99])).toBe(23); // 24 extensions exist
  });

  it('keeps max+1 when 25 or more extensions exist', () => {
    expect(suggestExtension(range(0, 25))).toBe(26); // 26 exist
    expect(suggestExtension([...range(1, 24), 30])).toBe(31); // 25 exist, 0 unused
  });

  it('ignores duplicates when counting', () => {
    expect(suggestExtension([30, 30, 30])).toBe(0);
    expect(suggestExtension([2, 2])).toBe(3);
  });
});

describe('suggestExtensions (spec 002 §7, perPage default 10)', () => {
  it('returns 10 suggestions by default', () => {
    expect(suggestExtensions([])).toEqual(range(0, 9));
    expect(suggestExtensions([1, 2])).toEqual(range(3, 12));
  });

  it('follows the same rule for each next suggestion', () => {
    expect(suggestExtensions([1, 2, 30], 4)).toEqual([0, 3, 4, 5]);
    expect(suggestExtensions([20], 7)).toEqual([21, 22, 23, 24, 25, 0, 1]);
  });

  it('honours perPage', () => {
    expect(suggestExtensions([5], 3)).toEqual([6, 7, 8]);
    expect(suggestExtensions([5], 0)).toEqual([]);
  });
});

describe('confirm keys (foundation §3)', () => {
  it('offers *, # then the digits 0 to 25 with their numeric values', () => {
    expect(CONFIRM_KEY_CHOICES).toHaveLength(28);
    expect(CONFIRM_KEY_CHOICES[0]).toEqual({ label: '*', value: 65535 });
    expect(CONFIRM_KEY_CHOICES[1]).toEqual({ label: '#', value: 65534 });
    expect(CONFIRM_KEY_CHOICES.slice(2)).toEqual(range(0, 25).map((n) => ({ label: String(n), value: n })));
    expect(CONFIRM_KEY_STAR).toBe(65535);
    expect(CONFIRM_KEY_HASH).toBe(65534);
  });

  it('maps stored values to the keys a caller presses', () => {
    expect(confirmKeyToDtmf(65535)).toBe('*');
    expect(confirmKeyToDtmf(65534)).toBe('#');
    expect(confirmKeyToDtmf(0)).toBe('0');
    expect(confirmKeyToDtmf(7)).toBe('7');
    expect(confirmKeyToDtmf(25)).toBe('25');
  });

  it('gives null for off and unknown values', () => {
    expect(confirmKeyToDtmf(null)).toBeNull();
    expect(confirmKeyToDtmf(26)).toBeNull();
    expect(confirmKeyToDtmf(-1)).toBeNull();
    expect(confirmKeyToDtmf(1.5)).toBeNull();
    expect(confirmKeyToDtmf(65533)).toBeNull();
  });
});
