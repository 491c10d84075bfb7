/**
 * Every IANA time zone a North American area code may be in (docs/quiet-hours.md "Zones of a
 * number"). {@link AREA_CODES} holds one zone per code (the zone of its main part); some areas
 * straddle a zone line or hold places that keep another clock, and for quiet hours a number there
 * may be in any of them, so the strictest window covering all of them applies.
 *
 * Pure data and lookups; no I/O.
 */
import { areaCodeInfo } from './area-codes.js';
import { areaCodeOf } from './phone.js';

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const PT = 'America/Los_Angeles';

/**
 * Zones an area code may be in besides its main zone ({@link AREA_CODES}), with the part of the area
 * that keeps them. Conservative: a code is listed when any county or community in it keeps another
 * clock, officially or by custom.
 */
export const EXTRA_AREA_CODE_ZONES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // Florida Panhandle: Pensacola keeps Central time, Tallahassee Eastern.
  '850': [ET],
  '448': [ET],
  // Indiana: the south-west corner (Evansville) keeps Central time.
  '812': [CT],
  '930': [CT],
  '574': [CT], // Starke County
  // Kentucky: the west is Central, Elizabethtown and the Bluegrass side Eastern; Clinton/Russell in 606 are Central.
  '270': [ET],
  '364': [ET],
  '606': [CT],
  // Tennessee: Marion and neighbouring counties in 423 keep Central time.
  '423': [CT],
  // Alabama: Phenix City (334) keeps Eastern time by custom.
  '334': [ET],
  // Michigan: four Upper Peninsula counties bordering Wisconsin keep Central time.
  '906': ['America/Menominee'],
  // Idaho: the panhandle keeps Pacific time.
  '208': [PT],
  '986': [PT],
  // Oregon: Malheur County keeps Mountain time.
  '541': ['America/Boise'],
  '458': ['America/Boise'],
  // Nevada: West Wendover keeps Mountain time.
  '775': [MT],
  // Arizona: the Navajo Nation keeps daylight-saving Mountain time.
  '928': [MT],
  // Texas: Culberson and Hudspeth counties (432) keep Mountain time.
  '432': [MT],
  // Kansas: Sherman, Wallace (785), Greeley and Hamilton (620) keep Mountain time.
  '785': [MT],
  '620': [MT],
  // Nebraska panhandle, western South Dakota and south-western North Dakota keep Mountain time.
  '308': [MT],
  '605': [MT],
  '701': [MT],
  // Alaska: the western Aleutians keep Hawaii–Aleutian time.
  '907': ['America/Adak'],
  // British Columbia: the north-east and the East Kootenays keep Mountain time (some without DST).
  '250': ['America/Edmonton', 'America/Dawson_Creek', 'America/Fort_Nelson', 'America/Creston'],
  '236': ['America/Edmonton', 'America/Dawson_Creek', 'America/Fort_Nelson', 'America/Creston'],
  '257': ['America/Edmonton', 'America/Dawson_Creek', 'America/Fort_Nelson', 'America/Creston'],
  '672': ['America/Edmonton', 'America/Dawson_Creek', 'America/Fort_Nelson', 'America/Creston'],
  // Saskatchewan: Lloydminster keeps Alberta time.
  '306': ['America/Edmonton'],
  '639': ['America/Edmonton'],
  '474': ['America/Edmonton'],
  // North-western Ontario: Kenora and the west keep Central time.
  '807': ['America/Winnipeg'],
  // Quebec: the Magdalen Islands keep Atlantic time.
  '418': ['America/Halifax'],
  '581': ['America/Halifax'],
  '367': ['America/Halifax'],
  // Newfoundland and Labrador: Labrador keeps Atlantic time.
  '709': ['America/Goose_Bay'],
  '879': ['America/Goose_Bay'],
  // Yukon, Northwest Territories and Nunavut: Mountain, Central and Eastern time.
  '867': ['America/Edmonton', 'America/Cambridge_Bay', 'America/Rankin_Inlet', 'America/Iqaluit'],
});

/**
 * Every zone a geographic NANP area code may be in: its main zone first, then the others.
 *
 * @param code a 3-digit area code, e.g. "850"
 * @returns e.g. ["America/Chicago", "America/New_York"]; `[]` for a code not in {@link AREA_CODES}
 */
export function areaCodeTimeZones(code: string): string[] {
  const info = areaCodeInfo(code);
  if (!info) return [];
  const extra = Object.hasOwn(EXTRA_AREA_CODE_ZONES, code.trim()) ? EXTRA_AREA_CODE_ZONES[code.trim()]! : [];
  return [...new Set([info.timeZone, ...extra])];
}

/**
 * Every zone a North American number may be in, from its area code ({@link areaCodeTimeZones}).
 *
 * @param e164 e.g. "+18505550123"
 * @returns main zone first; `[]` for a non-NANP number or a code not in the table
 */
export function timeZonesOfNumber(e164: string): string[] {
  const code = areaCodeOf(e164);
  return code === null ? [] : areaCodeTimeZones(code);
}
