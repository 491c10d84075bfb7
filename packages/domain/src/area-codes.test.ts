import { describe, it, expect } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AREA_CODES, OVERLAYS, REGION_NAMES, areaCodeInfo, overlayAreaCodes, regionOfNumber, stateName, timeZoneOfNumber } from './area-codes.js';
import { isValidTimeZone } from './timezone.js';

const US_STATES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  );
const PROVINCES = 'AB BC MB NB NL NS ON QC SK'.split(' ');

function libCountry(code: string): string | undefined {
  for (const rest of ['2345678', '4567890', '7771234', '3210000', '8881234', '2221234', '9876543']) {
    const parsed = parsePhoneNumberFromString(`+1${code}${rest}`);
    if (parsed?.isValid()) return parsed.country;
  }
  return undefined;
}

describe('AREA_CODES table', () => {
  it('covers all 50 states, DC and the Canadian provinces with several hundred codes', () => {
    const regions = new Set(Object.values(AREA_CODES).map((i) => i.region));
    for (const r of [...US_STATES, 'DC', ...PROVINCES]) expect(regions.has(r), r).toBe(true);
    expect(Object.keys(AREA_CODES).length).toBeGreaterThan(400);
  });

  it('holds only 3-digit codes, known regions and real IANA zones', () => {
    for (const [code, info] of Object.entries(AREA_CODES)) {
      expect(code).toMatch(/^[2-9]\d{2}$/);
      expect(REGION_NAMES[info.region], code).toBeDefined();
      expect(isValidTimeZone(info.timeZone), `${code} ${info.timeZone}`).toBe(true);
    }
  });

  it('agrees with libphonenumber: every code is a valid number of its country', () => {
    for (const [code, info] of Object.entries(AREA_CODES)) expect(libCountry(code), code).toBe(info.country);
  });

  it('is complete: every geographic US/CA code libphonenumber knows is in the table', () => {
    // 273: in the metadata, region not confirmed (see docs/domain-decisions.md).
    const excluded = new Set(['273']);
    const missing: string[] = [];
    for (let c = 200; c < 1000; c++) {
      const code = String(c);
      const parsed = ['2345678', '4567890', '7771234']
        .map((rest) => parsePhoneNumberFromString(`+1${code}${rest}`))
        .find((p) => p?.isValid() && (p.country === 'US' || p.country === 'CA'));
      const type = parsed?.getType();
      const geographic = type === 'FIXED_LINE_OR_MOBILE' || type === 'FIXED_LINE' || type === 'MOBILE';
      if (geographic && !(code in AREA_CODES) && !excluded.has(code)) missing.push(code);
    }
    expect(missing).toEqual([]);
  });

  it('excludes toll-free and non-geographic codes', () => {
    for (const code of ['800', '833', '844', '855', '866', '877', '888', '900', '500', '600', '555']) expect(areaCodeInfo(code)).toBeNull();
  });
});

describe('areaCodeInfo', () => {
  it.each([
    ['212', 'NY', 'America/New_York', 'US'],
    ['310', 'CA', 'America/Los_Angeles', 'US'],
    ['312', 'IL', 'America/Chicago', 'US'],
    ['602', 'AZ', 'America/Phoenix', 'US'],
    ['907', 'AK', 'America/Anchorage', 'US'],
    ['808', 'HI', 'Pacific/Honolulu', 'US'],
    ['202', 'DC', 'America/New_York', 'US'],
    ['915', 'TX', 'America/Denver', 'US'],
    ['214', 'TX', 'America/Chicago', 'US'],
    ['850', 'FL', 'America/Chicago', 'US'],
    ['305', 'FL', 'America/New_York', 'US'],
    ['219', 'IN', 'America/Chicago', 'US'],
    ['317', 'IN', 'America/Indiana/Indianapolis', 'US'],
    ['208', 'ID', 'America/Boise', 'US'],
    ['615', 'TN', 'America/Chicago', 'US'],
    ['865', 'TN', 'America/New_York', 'US'],
    ['416', 'ON', 'America/Toronto', 'CA'],
    ['514', 'QC', 'America/Toronto', 'CA'],
    ['604', 'BC', 'America/Vancouver', 'CA'],
    ['403', 'AB', 'America/Edmonton', 'CA'],
    ['306', 'SK', 'America/Regina', 'CA'],
    ['709', 'NL', 'America/St_Johns', 'CA'],
    ['902', 'NS', 'America/Halifax', 'CA'],
  ])('%s → %s, %s', (code, region, timeZone, country) => {
    expect(areaCodeInfo(code)).toEqual({ region, timeZone, country });
  });

  it('returns null for unknown or malformed codes', () => {
    expect(areaCodeInfo('123')).toBeNull();
    expect(areaCodeInfo('21')).toBeNull();
    expect(areaCodeInfo('')).toBeNull();
    expect(areaCodeInfo('toString')).toBeNull();
  });
});

describe('regionOfNumber / timeZoneOfNumber', () => {
  it('read the area code of E.164 and raw NANP numbers', () => {
    expect(regionOfNumber('+12125550123')).toBe('NY');
    expect(regionOfNumber('(415) 555-0199')).toBe('CA');
    expect(regionOfNumber('+14165550123')).toBe('ON');
    expect(timeZoneOfNumber('+13105550123')).toBe('America/Los_Angeles');
    expect(timeZoneOfNumber('13125550123')).toBe('America/Chicago');
  });

  it('give null for toll-free, non-NANP and malformed numbers', () => {
    expect(regionOfNumber('+18005550123')).toBeNull();
    expect(timeZoneOfNumber('+442071838750')).toBeNull();
    expect(regionOfNumber('555')).toBeNull();
  });
});

describe('stateName', () => {
  it('gives full names, case-insensitively', () => {
    expect(stateName('NY')).toBe('New York');
    expect(stateName('dc')).toBe('District of Columbia');
    expect(stateName(' on ')).toBe('Ontario');
    expect(stateName('NL')).toBe('Newfoundland and Labrador');
  });

  it('names all 50 states and gives null for unknown codes', () => {
    for (const s of US_STATES) expect(stateName(s)).toEqual(expect.any(String));
    expect(stateName('XX')).toBeNull();
    expect(stateName('')).toBeNull();
  });
});

describe('OVERLAYS / overlayAreaCodes', () => {
  it('lists the real complexes', () => {
    expect(overlayAreaCodes('212')).toEqual(['646', '332', '917']);
    expect(overlayAreaCodes('213')).toEqual(expect.arrayContaining(['323']));
    expect(overlayAreaCodes('310')).toEqual(['424']);
    expect(overlayAreaCodes('415')).toEqual(['628']);
    expect(overlayAreaCodes('312')).toEqual(['773', '872']);
    expect(overlayAreaCodes('305')).toEqual(['786', '645']);
    expect(overlayAreaCodes('404')).toEqual(expect.arrayContaining(['678', '470', '943']));
    expect(overlayAreaCodes('617')).toEqual(['857']);
    expect(overlayAreaCodes('214')).toEqual(['469', '972', '945']);
    expect(overlayAreaCodes('416')).toEqual(expect.arrayContaining(['647', '437']));
    expect(overlayAreaCodes('514')).toEqual(['438', '263']);
  });

  it('joins the complexes a code belongs to (917 covers all of New York City)', () => {
    expect(overlayAreaCodes('917')).toEqual(['212', '646', '332', '718', '347', '929']);
    expect(overlayAreaCodes('718')).toEqual(['347', '929', '917']);
  });

  it('is symmetric and never includes the code itself', () => {
    for (const group of OVERLAYS) {
      for (const code of group) {
        const others = overlayAreaCodes(code);
        expect(others).not.toContain(code);
        for (const other of group) if (other !== code) expect(overlayAreaCodes(other)).toContain(code);
      }
    }
  });

  it('keeps each complex inside one region and inside the table', () => {
    for (const group of OVERLAYS) {
      expect(group.length).toBeGreaterThan(1);
      const regions = new Set(group.map((code) => areaCodeInfo(code)?.region));
      expect(regions.size, group.join('/')).toBe(1);
      expect(regions.has(undefined)).toBe(false);
    }
  });

  it('gives [] for a code without overlay or an unknown code', () => {
    expect(overlayAreaCodes('907')).toEqual([]);
    expect(overlayAreaCodes('800')).toEqual([]);
    expect(overlayAreaCodes('abc')).toEqual([]);
  });
});
