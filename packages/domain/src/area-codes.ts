/**
 * Geographic NANP area codes of the United States and Canada: the state or province each serves, the
 * IANA time zone of its main part, and the overlay complexes (several codes serving one region)
 * (docs/numbers.md "Overlay area codes"; quiet hours in the recipient's local time, taken from the
 * number's area code: docs/quiet-hours.md "Zones of a number";
 * foundation §5 "US area code length is 3").
 *
 * The table holds geographic codes only: toll-free (8XX), non-geographic (5XX, 600, 700, 900) and
 * codes of other NANP countries (Caribbean, territories) are not in it. A code whose area spans two
 * zones carries the zone where most of its people live (e.g. 850 Florida Panhandle → Central,
 * 812 southern Indiana → Eastern); see docs/domain-decisions.md.
 */
import { areaCodeOf } from './phone.js';

/** Country of a geographic area code. */
export type AreaCodeCountry = 'US' | 'CA';

/** What an area code serves. */
export interface AreaCodeInfo {
  /** Two-letter USPS state code (or "DC") or Canadian province/territory code, e.g. "NY", "ON". */
  region: string;
  /** IANA time zone of the main part of the area, e.g. "America/New_York". */
  timeZone: string;
  /** "US" or "CA". */
  country: AreaCodeCountry;
}

const ET = 'America/New_York';
const CT = 'America/Chicago';
const MT = 'America/Denver';
const PT = 'America/Los_Angeles';

/** [region, zone, space-separated area codes]. A region appears more than once when its codes differ in zone. */
const US_ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['AL', CT, '205 251 256 334 659 938'],
  ['AK', 'America/Anchorage', '907'],
  ['AZ', 'America/Phoenix', '480 520 602 623 928'],
  ['AR', CT, '327 479 501 870'],
  [
    'CA',
    PT,
    '209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 738 747 760 805 818 820 831 840 858 909 916 925 949 951',
  ],
  ['CO', MT, '303 719 720 748 970 983'],
  ['CT', ET, '203 475 860 959'],
  ['DE', ET, '302'],
  ['DC', ET, '202 771'],
  ['FL', ET, '239 305 321 324 352 386 407 561 645 656 689 727 728 754 772 786 813 863 904 941 954'],
  ['FL', CT, '448 850'],
  ['GA', ET, '229 404 470 478 678 706 762 770 912 943'],
  ['HI', 'Pacific/Honolulu', '808'],
  ['ID', 'America/Boise', '208 986'],
  ['IL', CT, '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 872'],
  ['IN', 'America/Indiana/Indianapolis', '260 317 463 574 765 812 930'],
  ['IN', CT, '219'],
  ['IA', CT, '319 515 563 641 712'],
  ['KS', CT, '316 620 785 913'],
  ['KY', ET, '502 606 859'],
  ['KY', CT, '270 364'],
  ['LA', CT, '225 318 337 504 985'],
  ['ME', ET, '207'],
  ['MD', ET, '227 240 301 410 443 667'],
  ['MA', ET, '339 351 413 508 617 774 781 857 978'],
  ['MI', 'America/Detroit', '231 248 269 313 517 586 616 734 810 906 947 989'],
  ['MN', CT, '218 320 507 612 651 763 952'],
  ['MS', CT, '228 601 662 769'],
  ['MO', CT, '235 314 417 557 573 636 660 816 975'],
  ['MT', MT, '406'],
  ['NE', CT, '308 402 531'],
  ['NV', PT, '702 725 775'],
  ['NH', ET, '603'],
  ['NJ', ET, '201 551 609 640 732 848 856 862 908 973'],
  ['NM', MT, '505 575'],
  ['NY', ET, '212 315 329 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934'],
  ['NC', ET, '252 336 472 704 743 828 910 919 980 984'],
  ['ND', CT, '701'],
  ['OH', ET, '216 220 234 283 326 330 380 419 440 513 567 614 740 937'],
  ['OK', CT, '405 539 572 580 918'],
  ['OR', PT, '458 503 541 971'],
  ['PA', ET, '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878'],
  ['RI', ET, '401'],
  ['SC', ET, '803 821 839 843 854 864'],
  ['SD', CT, '605'],
  ['TN', CT, '615 629 731 901 931'],
  ['TN', ET, '423 865'],
  ['TX', CT, '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979'],
  ['TX', MT, '915'],
  ['UT', MT, '385 435 801'],
  ['VT', ET, '802'],
  ['VA', ET, '276 434 540 571 686 703 757 804 826 948'],
  ['WA', PT, '206 253 360 425 509 564'],
  ['WV', ET, '304 681'],
  ['WI', CT, '262 274 353 414 534 608 715 920'],
  ['WY', MT, '307'],
];

const CA_ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['AB', 'America/Edmonton', '368 403 587 780 825'],
  ['BC', 'America/Vancouver', '236 250 257 604 672 778'],
  ['MB', 'America/Winnipeg', '204 431 584'],
  ['NB', 'America/Moncton', '428 506'],
  ['NL', 'America/St_Johns', '709 879'],
  ['NS', 'America/Halifax', '782 902'],
  ['ON', 'America/Toronto', '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 807 905 942'],
  ['QC', 'America/Toronto', '263 354 367 418 438 450 468 514 579 581 819 873'],
  ['SK', 'America/Regina', '306 474 639'],
  ['YT', 'America/Whitehorse', '867'],
];

function buildTable(): Readonly<Record<string, AreaCodeInfo>> {
  const table: Record<string, AreaCodeInfo> = {};
  const add = (rows: ReadonlyArray<readonly [string, string, string]>, country: AreaCodeCountry): void => {
    for (const [region, timeZone, codes] of rows) {
      for (const code of codes.split(' ')) table[code] = Object.freeze({ region, timeZone, country });
    }
  };
  add(US_ROWS, 'US');
  add(CA_ROWS, 'CA');
  return Object.freeze(table);
}

/**
 * Every geographic US and Canadian area code → its region, zone and country. 902/782 serve Nova
 * Scotia and Prince Edward Island (region "NS"); 867 serves Yukon, the Northwest Territories and
 * Nunavut (region "YT").
 */
export const AREA_CODES: Readonly<Record<string, AreaCodeInfo>> = buildTable();

/** Full names of the regions used in {@link AREA_CODES}: the 50 states, DC, and Canada's provinces and territories. */
export const REGION_NAMES: Readonly<Record<string, string>> = Object.freeze({
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
});

/**
 * Full name of a two-letter state, DC or province/territory code, case-insensitive.
 *
 * @param code e.g. "NY", "on"
 * @returns e.g. "New York", "Ontario"; `null` for an unknown code
 */
export function stateName(code: string): string | null {
  const key = code.trim().toUpperCase();
  return Object.hasOwn(REGION_NAMES, key) ? REGION_NAMES[key]! : null;
}

/**
 * What a geographic area code serves.
 *
 * @param code a 3-digit area code, e.g. "212" (surrounding spaces ignored)
 * @returns region, zone and country, or `null` for a code not in {@link AREA_CODES} (toll-free, unknown, not 3 digits)
 */
export function areaCodeInfo(code: string): AreaCodeInfo | null {
  const key = code.trim();
  return Object.hasOwn(AREA_CODES, key) ? AREA_CODES[key]! : null;
}

/**
 * State or province of a North American number, from its area code (uses `areaCodeOf`).
 *
 * @param e164 e.g. "+12125550123"
 * @returns e.g. "NY"; `null` for a non-NANP number or a non-geographic area code
 */
export function regionOfNumber(e164: string): string | null {
  const code = areaCodeOf(e164);
  return code === null ? null : (areaCodeInfo(code)?.region ?? null);
}

/**
 * IANA zone of a North American number, from its area code (the zone of the area's main part).
 *
 * @param e164 e.g. "+13105550123"
 * @returns e.g. "America/Los_Angeles"; `null` for a non-NANP number or a non-geographic area code
 */
export function timeZoneOfNumber(e164: string): string | null {
  const code = areaCodeOf(e164);
  return code === null ? null : (areaCodeInfo(code)?.timeZone ?? null);
}

/**
 * Overlay complexes: groups of area codes that serve the same geographic area (a new code added on
 * top of an existing one instead of splitting it). A code can belong to two complexes when it
 * overlays both (917 covers all of New York City; 872 covers 312 and 773 in Chicago).
 */
export const OVERLAYS: ReadonlyArray<readonly string[]> = Object.freeze(
  [
    // New York
    ['212', '646', '332', '917'],
    ['718', '347', '929', '917'],
    ['516', '363'],
    ['631', '934'],
    ['845', '329'],
    ['315', '680'],
    ['518', '838'],
    // New Jersey
    ['201', '551'],
    ['973', '862'],
    ['732', '848'],
    ['609', '640'],
    // Pennsylvania
    ['215', '267', '445'],
    ['610', '484', '835'],
    ['412', '724', '878'],
    ['717', '223'],
    ['570', '272'],
    ['814', '582'],
    // New England
    ['617', '857'],
    ['781', '339'],
    ['508', '774'],
    ['978', '351'],
    ['203', '475'],
    ['860', '959'],
    // Mid-Atlantic
    ['202', '771'],
    ['301', '240', '227'],
    ['410', '443', '667'],
    ['703', '571'],
    ['540', '826'],
    ['757', '948'],
    ['804', '686'],
    ['304', '681'],
    // South-east
    ['704', '980'],
    ['919', '984'],
    ['336', '743'],
    ['910', '472'],
    ['803', '839'],
    ['843', '854'],
    ['864', '821'],
    ['404', '770', '678', '470', '943'],
    ['706', '762'],
    ['305', '786', '645'],
    ['954', '754'],
    ['407', '321', '689'],
    ['561', '728'],
    ['813', '656'],
    ['904', '324'],
    ['850', '448'],
    ['205', '659'],
    ['256', '938'],
    ['601', '769'],
    ['615', '629'],
    ['270', '364'],
    // Midwest
    ['312', '773', '872'],
    ['847', '224'],
    ['630', '331'],
    ['815', '779'],
    ['708', '464'],
    ['618', '730'],
    ['217', '447'],
    ['317', '463'],
    ['812', '930'],
    ['248', '947'],
    ['330', '234'],
    ['419', '567'],
    ['513', '283'],
    ['614', '380'],
    ['740', '220'],
    ['937', '326'],
    ['608', '353'],
    ['920', '274'],
    ['715', '534'],
    ['402', '531'],
    ['314', '557'],
    ['816', '975'],
    ['573', '235'],
    ['405', '572'],
    ['918', '539'],
    ['870', '327'],
    // Texas
    ['214', '469', '972', '945'],
    ['713', '281', '832', '346'],
    ['210', '726'],
    ['512', '737'],
    ['817', '682'],
    ['903', '430'],
    // West
    ['303', '720', '983'],
    ['970', '748'],
    ['801', '385'],
    ['702', '725'],
    ['503', '971'],
    ['541', '458'],
    ['360', '564'],
    ['208', '986'],
    ['213', '323', '738'],
    ['310', '424'],
    ['415', '628'],
    ['408', '669'],
    ['510', '341'],
    ['714', '657'],
    ['760', '442'],
    ['805', '820'],
    ['818', '747'],
    ['909', '840'],
    ['916', '279'],
    ['209', '350'],
    ['707', '369'],
    // Canada
    ['416', '647', '437', '942'],
    ['905', '289', '365', '742'],
    ['519', '226', '548', '382'],
    ['613', '343', '753'],
    ['705', '249', '683'],
    ['514', '438', '263'],
    ['450', '579', '354'],
    ['418', '581', '367'],
    ['819', '873', '468'],
    ['604', '250', '778', '236', '672', '257'],
    ['403', '780', '587', '825', '368'],
    ['306', '639', '474'],
    ['204', '431', '584'],
    ['506', '428'],
    ['902', '782'],
    ['709', '879'],
  ]
    .filter((group) => group.length > 1)
    .map((group) => Object.freeze(group)),
);

/**
 * The other area codes of the overlay complex(es) of `areaCode` (GET /numbers/overlay/{areaCode}):
 * codes that serve the same area, in table order, without `areaCode` itself and without duplicates.
 *
 * @param areaCode a 3-digit area code, e.g. "212"
 * @returns e.g. "212" → ["646", "332", "917"]; "917" → ["212", "646", "332", "718", "347", "929"];
 *   [] for a code without an overlay or an unknown code
 */
export function overlayAreaCodes(areaCode: string): string[] {
  const code = areaCode.trim();
  const result: string[] = [];
  for (const group of OVERLAYS) {
    if (!group.includes(code)) continue;
    for (const other of group) if (other !== code && !result.includes(other)) result.push(other);
  }
  return result;
}
