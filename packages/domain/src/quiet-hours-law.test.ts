import { describe, it, expect } from 'vitest';
import { getAllCountries } from 'countries-and-timezones';
import { AREA_CODES } from './area-codes.js';
import { areaCodeTimeZones, timeZonesOfNumber } from './area-code-zones.js';
import { easterSunday, holidaysOf, isHoliday } from './holidays.js';
import { LEGAL_QUIET_HOURS, isSendAllowed, legalWindowsOn, nextSendTime, recipientJurisdiction } from './quiet-hours-law.js';

const UK = '+442071838750'; // London
const NY = '+12125550123';
const MIAMI = '+13055550123';
const DALLAS = '+12145550123';
const PENSACOLA = '+18505550123'; // 850: Central and Eastern
const BOISE = '+12085550123'; // 208: Mountain and Pacific
const PROVIDENCE = '+14015550123';
const TORONTO = '+14165550123';
const SYDNEY = '+61412345678';
const PARIS = '+33612345678';
const MOSCOW = '+79161234567';
const TOLL_FREE = '+18005550123';
const at = (iso: string): Date => new Date(iso);
const next = (e164: string, iso: string, options = {}): string | undefined => nextSendTime(e164, at(iso), options)?.toISOString();

describe('recipientJurisdiction: country from the number, state and zones from the area code', () => {
  it('reads a UK number as GB in London', () => {
    expect(recipientJurisdiction(UK)).toMatchObject({ country: 'GB', region: null, zones: ['Europe/London'] });
    expect(recipientJurisdiction(UK).rules.map((r) => r.id)).toEqual(['DEFAULT']);
  });

  it('applies the federal and the state rule to a US number', () => {
    const j = recipientJurisdiction(MIAMI);
    expect(j).toMatchObject({ country: 'US', region: 'FL', zones: ['America/New_York'] });
    expect(j.rules.map((r) => r.id)).toEqual(['US', 'US-FL']);
    expect(recipientJurisdiction(NY).rules.map((r) => r.id)).toEqual(['US']);
  });

  it('lists every zone of an area code that spans several', () => {
    expect(recipientJurisdiction(PENSACOLA).zones).toEqual(['America/Chicago', 'America/New_York']);
    expect(timeZonesOfNumber(BOISE)).toEqual(['America/Boise', 'America/Los_Angeles']);
    expect(areaCodeTimeZones('212')).toEqual(['America/New_York']);
    expect(areaCodeTimeZones('800')).toEqual([]);
  });

  it('applies every state rule and every US zone when the state is unknown (toll-free)', () => {
    const j = recipientJurisdiction(TOLL_FREE);
    expect(j.country).toBe('US');
    expect(j.region).toBeNull();
    expect(j.zones).toEqual(expect.arrayContaining(['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu']));
    expect(j.rules.map((r) => r.id)).toEqual(expect.arrayContaining(['US', 'US-RI', 'US-TX', 'US-FL']));
  });

  it('uses the fallback zone and the default rule for a number it cannot read', () => {
    expect(recipientJurisdiction('garbage', 'America/Chicago')).toMatchObject({ country: null, zones: ['America/Chicago'] });
    expect(recipientJurisdiction('garbage').rules.map((r) => r.id)).toEqual(['DEFAULT']);
  });

  it('every zone in the tables is known to the runtime and every rule has a source', () => {
    for (const code of Object.keys(AREA_CODES)) {
      for (const zone of areaCodeTimeZones(code)) expect(() => new Intl.DateTimeFormat('en', { timeZone: zone }), `${code} ${zone}`).not.toThrow();
    }
    for (const r of Object.values(LEGAL_QUIET_HOURS)) expect(r.source.length, r.id).toBeGreaterThan(10);
  });
});

describe('isSendAllowed / nextSendTime (the law in the recipient local time)', () => {
  it('a UK number at 00:12 London time is quiet, in winter and in summer', () => {
    expect(isSendAllowed(UK, at('2025-01-15T00:12:00Z'))).toBe(false);
    expect(next(UK, '2025-01-15T00:12:00Z')).toBe('2025-01-15T08:00:00.000Z');
    expect(isSendAllowed(UK, at('2025-07-14T23:12:00Z'))).toBe(false); // 00:12 BST
    expect(next(UK, '2025-07-14T23:12:00Z')).toBe('2025-07-15T07:00:00.000Z'); // 08:00 BST
    expect(isSendAllowed(UK, at('2025-01-15T12:00:00Z'))).toBe(true);
    expect(isSendAllowed(UK, at('2025-01-15T20:00:00Z'))).toBe(false); // default window ends at 20:00
  });

  it('a New York number at 20:30 is allowed, a Florida number at 20:30 is not', () => {
    const evening = '2025-01-16T01:30:00Z'; // Wednesday 20:30 EST
    expect(isSendAllowed(NY, at(evening))).toBe(true);
    expect(isSendAllowed(MIAMI, at(evening))).toBe(false);
    expect(next(MIAMI, evening)).toBe('2025-01-16T13:00:00.000Z'); // Thursday 08:00 EST
    expect(isSendAllowed(NY, at('2025-01-16T02:00:00Z'))).toBe(false); // 21:00
  });

  it('Texas: not before noon on Sundays, 9:00 to 21:00 on other days', () => {
    expect(isSendAllowed(DALLAS, at('2025-01-19T17:00:00Z'))).toBe(false); // Sunday 11:00 CST
    expect(next(DALLAS, '2025-01-19T17:00:00Z')).toBe('2025-01-19T18:00:00.000Z'); // Sunday 12:00 CST
    expect(isSendAllowed(DALLAS, at('2025-01-18T17:00:00Z'))).toBe(true); // Saturday 11:00
    expect(isSendAllowed(DALLAS, at('2025-01-18T14:30:00Z'))).toBe(false); // Saturday 08:30
    expect(legalWindowsOn(DALLAS, '2025-01-19')).toEqual([{ start: '12:00', end: '21:00' }]);
    expect(legalWindowsOn(DALLAS, '2025-01-20')).toEqual([{ start: '09:00', end: '21:00' }]);
  });

  it('Rhode Island: short weekdays and Saturdays, no Sundays or holidays', () => {
    expect(isSendAllowed(PROVIDENCE, at('2025-01-15T22:30:00Z'))).toBe(true); // Wednesday 17:30
    expect(isSendAllowed(PROVIDENCE, at('2025-01-15T13:30:00Z'))).toBe(false); // 08:30
    expect(isSendAllowed(PROVIDENCE, at('2025-01-15T23:30:00Z'))).toBe(false); // 18:30
    // Sunday → not Monday (Martin Luther King Jr. Day) → Tuesday 09:00 EST.
    expect(next(PROVIDENCE, '2025-01-19T17:00:00Z')).toBe('2025-01-21T14:00:00.000Z');
    // Friday July 4th (holiday), Saturday from 10:00 EDT.
    expect(next(PROVIDENCE, '2025-07-04T15:00:00Z')).toBe('2025-07-05T14:00:00.000Z');
    expect(legalWindowsOn(PROVIDENCE, '2025-08-11')).toEqual([]); // Victory Day
    expect(legalWindowsOn(PROVIDENCE, '2025-08-12')).toEqual([{ start: '09:00', end: '18:00' }]);
  });

  it('a multi-zone area code uses the strictest window covering every zone', () => {
    // 08:30 Eastern is 07:30 Central: not yet allowed in Pensacola.
    expect(isSendAllowed(PENSACOLA, at('2025-01-15T13:30:00Z'))).toBe(false);
    expect(next(PENSACOLA, '2025-01-15T13:30:00Z')).toBe('2025-01-15T14:00:00.000Z'); // 08:00 Central
    // 19:15 Central is 20:15 Eastern: already past Florida's 20:00 in Tallahassee.
    expect(isSendAllowed(PENSACOLA, at('2025-01-16T01:15:00Z'))).toBe(false);
    expect(isSendAllowed(PENSACOLA, at('2025-01-16T00:30:00Z'))).toBe(true);
    // Idaho: 08:30 Mountain is 07:30 Pacific.
    expect(isSendAllowed(BOISE, at('2025-01-15T15:30:00Z'))).toBe(false);
    expect(next(BOISE, '2025-01-15T15:30:00Z')).toBe('2025-01-15T16:00:00.000Z');
  });

  it('is correct on daylight-saving days', () => {
    // New York, spring forward: 21:00 EST Saturday → 08:00 EDT Sunday = 12:00 UTC.
    expect(next(NY, '2025-03-09T02:00:00Z')).toBe('2025-03-09T12:00:00.000Z');
    // Texas on the same Sunday: noon CDT = 17:00 UTC.
    expect(next(DALLAS, '2025-03-09T13:00:00Z')).toBe('2025-03-09T17:00:00.000Z');
    // Texas, fall back Sunday: noon CST = 18:00 UTC.
    expect(next(DALLAS, '2025-11-02T14:00:00Z')).toBe('2025-11-02T18:00:00.000Z');
    // London, spring forward: 06:30 UTC is 07:30 BST → 08:00 BST = 07:00 UTC.
    expect(next(UK, '2025-03-30T06:30:00Z')).toBe('2025-03-30T07:00:00.000Z');
    // A company window starting inside the skipped hour moves to the first minute after it.
    expect(next(NY, '2025-03-09T05:00:00Z', { companyWindow: { start: '02:30', end: '10:00' } })).toBe('2025-03-09T12:00:00.000Z');
  });

  it('the company may narrow the window but never widen it', () => {
    const narrow = { companyWindow: { start: '10:00', end: '17:00' } };
    expect(isSendAllowed(NY, at('2025-01-15T14:00:00Z'), narrow)).toBe(false); // 09:00
    expect(next(NY, '2025-01-15T14:00:00Z', narrow)).toBe('2025-01-15T15:00:00.000Z');
    const wide = { companyWindow: { start: '06:00', end: '23:00' } };
    expect(isSendAllowed(NY, at('2025-01-15T12:00:00Z'), wide)).toBe(false); // 07:00
    expect(isSendAllowed(NY, at('2025-01-16T03:00:00Z'), wide)).toBe(false); // 22:00
    const overnight = { companyWindow: { start: '20:00', end: '10:00' } };
    expect(next(NY, '2025-01-15T17:00:00Z', overnight)).toBe('2025-01-16T01:00:00.000Z'); // 12:00 → 20:00
    expect(isSendAllowed(NY, at('2025-01-15T14:00:00Z'), overnight)).toBe(true); // 09:00
    expect(nextSendTime(NY, at('2025-01-15T17:00:00Z'), { companyWindow: { start: '22:00', end: '06:00' } })).toBeNull();
    expect(() => isSendAllowed(NY, new Date(), { companyWindow: { start: '8am', end: '21:00' } })).toThrow(RangeError);
  });

  it('national rules: Canada, Australia, France', () => {
    expect(isSendAllowed(TORONTO, at('2025-01-18T14:30:00Z'))).toBe(false); // Saturday 09:30
    expect(next(TORONTO, '2025-01-18T14:30:00Z')).toBe('2025-01-18T15:00:00.000Z');
    expect(isSendAllowed(TORONTO, at('2025-01-16T02:15:00Z'))).toBe(true); // Wednesday 21:15
    expect(isSendAllowed(SYDNEY, at('2025-01-19T01:00:00Z'))).toBe(false); // Sunday 12:00 AEDT
    expect(isSendAllowed(PARIS, at('2025-01-15T12:30:00Z'))).toBe(false); // Wednesday 13:30 CET
    expect(next(PARIS, '2025-01-15T12:30:00Z')).toBe('2025-01-15T13:00:00.000Z');
    expect(isSendAllowed(PARIS, at('2025-01-18T10:00:00Z'))).toBe(false); // Saturday
  });

  it('a country spanning many zones sends only when every zone allows it', () => {
    // Russia spans UTC+2 to UTC+12: 08:00–20:00 everywhere only from 06:00 to 08:00 UTC.
    expect(isSendAllowed(MOSCOW, at('2025-01-15T09:00:00Z'))).toBe(false); // 12:00 Moscow, 21:00 Anadyr
    expect(next(MOSCOW, '2025-01-15T09:00:00Z')).toBe('2025-01-16T06:00:00.000Z');
  });

  it('zones that never share an allowed minute fall back to the main zone', () => {
    // A company window of half an hour: 08:00 Central and 08:00 Eastern never coincide.
    const halfHour = { companyWindow: { start: '08:00', end: '08:30' } };
    expect(next(PENSACOLA, '2025-01-15T12:00:00Z', halfHour)).toBe('2025-01-15T14:00:00.000Z');
    expect(isSendAllowed(PENSACOLA, at('2025-01-15T14:10:00Z'), halfHour)).toBe(true);
    expect(isSendAllowed(PENSACOLA, at('2025-01-15T13:10:00Z'), halfHour)).toBe(false);
  });

  it('always lands inside the window, at or after the instant, for every area code and country', () => {
    const numbers = [...Object.keys(AREA_CODES).map((code) => `+1${code}5550123`), TOLL_FREE, UK, SYDNEY, PARIS, MOSCOW];
    const instants = [at('2025-01-18T03:17:00Z'), at('2025-07-06T16:41:00Z'), at('2025-12-24T22:05:00Z')];
    for (const number of numbers) {
      for (const instant of instants) {
        const n = nextSendTime(number, instant);
        expect(n, number).not.toBeNull();
        expect(n!.getTime()).toBeGreaterThanOrEqual(instant.getTime());
        expect(isSendAllowed(number, n!), `${number} ${n!.toISOString()}`).toBe(true);
      }
    }
    for (const country of ['DE', 'JP', 'BR', 'MX', 'IN', 'NG', 'ZA', 'NZ', 'ID']) {
      expect(Object.keys(getAllCountries())).toContain(country);
    }
  });
});

describe('holidays', () => {
  it('computes Easter and floating US holidays', () => {
    expect(easterSunday(2025)).toEqual([4, 20]);
    expect(easterSunday(2024)).toEqual([3, 31]);
    expect(isHoliday('US', '2025-11-27')).toBe(true); // Thanksgiving
    expect(isHoliday('US', '2025-01-20')).toBe(true); // MLK Day
    expect(isHoliday('US', '2025-05-26')).toBe(true); // Memorial Day
    expect(isHoliday('US', '2025-11-26')).toBe(false);
    expect(isHoliday('US', '2021-12-31')).toBe(true); // New Year's Day 2022 (Saturday) observed
    expect(isHoliday('US-RI', '2024-11-05')).toBe(true); // election day
    expect(isHoliday('US-RI', '2025-11-04')).toBe(false);
    expect(isHoliday('AU', '2025-04-21')).toBe(true); // Easter Monday
    expect(isHoliday('FR', '2025-05-29')).toBe(true); // Ascension
    expect(holidaysOf('US', 2030).size).toBeGreaterThanOrEqual(11);
  });
});
