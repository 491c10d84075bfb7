import { describe, it, expect } from 'vitest';
import {
  DEFAULT_COUNTRY,
  US_AREA_CODE_LENGTH,
  areaCodeOf,
  formatPhone,
  isValidPhone,
  looksLikePhone,
  normalizeConversationSearch,
  parsePhone,
  stripPhoneSearch,
} from './phone.js';

describe('phone constants (foundation §5, §9)', () => {
  it('uses US as the default country and 3-digit area codes', () => {
    expect(DEFAULT_COUNTRY).toBe('US');
    expect(US_AREA_CODE_LENGTH).toBe(3);
  });
});

describe('parsePhone (foundation §5)', () => {
  it('parses US numbers typed without a country code using US as the default country', () => {
    expect(parsePhone('2125550123')).toBe('+12125550123');
    expect(parsePhone('(212) 555-0123')).toBe('+12125550123');
    expect(parsePhone('212.555.0123')).toBe('+12125550123');
    expect(parsePhone('12125550123')).toBe('+12125550123');
    expect(parsePhone('  +1 212 555 0123 ')).toBe('+12125550123');
  });

  it('parses numbers with another country code as entered', () => {
    expect(parsePhone('+44 20 7183 8750')).toBe('+442071838750');
    expect(parsePhone('+61 2 9876 5432')).toBe('+61298765432');
  });

  it('parses Canadian and toll-free numbers', () => {
    expect(parsePhone('416-555-0123')).toBe('+14165550123');
    expect(parsePhone('1-800-555-0123')).toBe('+18005550123');
  });

  it('retries an invalid number with a +1 prefix', () => {
    // As entered, +212 is Morocco and the number is invalid; with +1 it is a valid New York number.
    expect(parsePhone('+2125550123')).toBe('+12125550123');
    // With a non-US default country the number is invalid as entered, valid once +1 is put in front.
    expect(parsePhone('2125550123', 'GB')).toBe('+12125550123');
  });

  it('uses the given default country for national numbers', () => {
    expect(parsePhone('020 7183 8750', 'GB')).toBe('+442071838750');
    expect(parsePhone('020 7183 8750')).toBeNull();
  });

  it('rejects numbers that are still invalid after the retry', () => {
    expect(parsePhone('15551234567')).toBeNull(); // 555 is not a real area code
    expect(parsePhone('5551234567')).toBeNull();
    expect(parsePhone('12345')).toBeNull();
    expect(parsePhone('212555012')).toBeNull();
    expect(parsePhone('abc')).toBeNull();
    expect(parsePhone('')).toBeNull();
    expect(parsePhone('   ')).toBeNull();
  });

  it('ignores an unknown default country code instead of failing', () => {
    expect(parsePhone('+12125550123', 'XX')).toBe('+12125550123');
    expect(parsePhone('2125550123', 'XX')).toBe('+12125550123'); // through the +1 retry
  });

  it('isValidPhone agrees with parsePhone', () => {
    expect(isValidPhone('2125550123')).toBe(true);
    expect(isValidPhone('15551234567')).toBe(false);
  });
});

describe('formatPhone (foundation §5)', () => {
  it('shows US and Canadian numbers in national form', () => {
    expect(formatPhone('+12125550123')).toBe('(212) 555-0123');
    expect(formatPhone('2125550123')).toBe('(212) 555-0123');
    expect(formatPhone('+14165550123')).toBe('(416) 555-0123');
    expect(formatPhone('+18005550123')).toBe('(800) 555-0123');
  });

  it('shows other countries in international form', () => {
    expect(formatPhone('+442071838750')).toBe('+44 20 7183 8750');
    expect(formatPhone('+17875550123')).toBe('+1 787 555 0123'); // Puerto Rico shares +1 but is neither US nor CA
  });

  it('shows an invalid number unchanged', () => {
    expect(formatPhone('15551234567')).toBe('15551234567');
    expect(formatPhone('+1 555 123 4567')).toBe('+1 555 123 4567');
    expect(formatPhone('not a number')).toBe('not a number');
    expect(formatPhone('')).toBe('');
  });
});

describe('phone search (spec 001 §5)', () => {
  it('removes spaces, dashes and parentheses only', () => {
    expect(stripPhoneSearch('(212) 555-0123')).toBe('2125550123');
    expect(stripPhoneSearch('+1 212-555 0123')).toBe('+12125550123');
    expect(stripPhoneSearch('212.555.0123')).toBe('212.555.0123');
  });

  it('recognises phone-like searches', () => {
    expect(looksLikePhone('(212) 555-0123')).toBe(true);
    expect(looksLikePhone('+1 212')).toBe(true);
    expect(looksLikePhone('555')).toBe(true);
    expect(looksLikePhone('55')).toBe(false);
    expect(looksLikePhone('John 555')).toBe(false);
    expect(looksLikePhone('2+12')).toBe(false);
    expect(looksLikePhone('')).toBe(false);
  });

  it('strips a phone-like search and only trims any other search', () => {
    expect(normalizeConversationSearch(' (212) 555-0123 ')).toBe('2125550123');
    expect(normalizeConversationSearch('  Jane Doe-Smith ')).toBe('Jane Doe-Smith');
  });
});

describe('areaCodeOf (foundation §5)', () => {
  it('returns the 3-digit area code of NANP numbers', () => {
    expect(areaCodeOf('+12125550123')).toBe('212');
    expect(areaCodeOf('12125550123')).toBe('212');
    expect(areaCodeOf('(416) 555-0123')).toBe('416');
    expect(areaCodeOf('+18005550123')).toBe('800');
  });

  it('returns null for other countries and malformed numbers', () => {
    expect(areaCodeOf('+442071838750')).toBeNull();
    expect(areaCodeOf('+4420718387')).toBeNull();
    expect(areaCodeOf('+1212555012')).toBeNull();
    expect(areaCodeOf('1212555012')).toBeNull();
    expect(areaCodeOf('+10125550123')).toBeNull();
    expect(areaCodeOf('')).toBeNull();
  });
});
