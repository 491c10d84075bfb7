/**
 * The sandbox carrier's purchasable inventory, generated deterministically (no storage): the same
 * search always offers the same numbers, minus those already sold (sandbox_numbers).
 *
 * Rules (docs/telephony.md "Sandbox inventory"):
 * - Local: a 3-digit area code NXX; the 7-digit subscriber part is built so that the pattern
 *   matches by construction (starts_with: pattern then filler; ends_with: filler then pattern;
 *   contains: the pattern at varying offsets), the filler digits coming from a hash of
 *   (area code, pattern, index). The exchange (first 3 subscriber digits) must start with 2-9
 *   and not be N11; every candidate must pass the domain's `parsePhone`.
 * - Toll-free: prefixes 800, 833, 844, 855, 866, 877, 888; "8**" cycles through all of them.
 * - Without a pattern, exchanges come from a fixed list of realistic exchanges.
 */
import crypto from 'node:crypto';
import { TOLL_FREE_AREA_CODES, parsePhone } from '@switchboard/domain';
import type { AvailableNumber, NumberSearch } from '../carrier.port.js';

/** Region and locality of well-known area codes (others: null). */
export const AREA_CODES: Record<string, { state: string; city: string }> = {
  '202': { state: 'DC', city: 'Washington' },
  '206': { state: 'WA', city: 'Seattle' },
  '212': { state: 'NY', city: 'New York' },
  '213': { state: 'CA', city: 'Los Angeles' },
  '303': { state: 'CO', city: 'Denver' },
  '305': { state: 'FL', city: 'Miami' },
  '310': { state: 'CA', city: 'Los Angeles' },
  '312': { state: 'IL', city: 'Chicago' },
  '404': { state: 'GA', city: 'Atlanta' },
  '415': { state: 'CA', city: 'San Francisco' },
  '512': { state: 'TX', city: 'Austin' },
  '602': { state: 'AZ', city: 'Phoenix' },
  '617': { state: 'MA', city: 'Boston' },
  '646': { state: 'NY', city: 'New York' },
  '702': { state: 'NV', city: 'Las Vegas' },
  '713': { state: 'TX', city: 'Houston' },
  '718': { state: 'NY', city: 'Brooklyn' },
  '773': { state: 'IL', city: 'Chicago' },
  '917': { state: 'NY', city: 'New York' },
};

const EXCHANGES = ['555', '234', '467', '389', '728', '646', '812', '953', '372', '590'];
export const LOCAL_PROVIDER_ID = 1;
export const TOLL_FREE_PROVIDER_ID = 2;

function digitStream(seed: string): () => string {
  let buf = Buffer.alloc(0);
  let counter = 0;
  return () => {
    if (buf.length === 0) buf = crypto.createHash('sha256').update(`${seed}:${counter++}`).digest();
    const d = String(buf[0]! % 10);
    buf = buf.subarray(1);
    return d;
  };
}

function validExchange(sub: string): boolean {
  return /^[2-9]/.test(sub) && !/^[2-9]11/.test(sub);
}

/** Subscriber parts (7 digits) matching `pattern` in `mode`, in a stable order. */
function* subscribers(seed: string, pattern: string, mode: 'contains' | 'starts_with' | 'ends_with'): Generator<string> {
  const next = digitStream(`${seed}:${mode}:${pattern}`);
  const fill = (n: number) => Array.from({ length: n }, next).join('');
  for (let i = 0; i < 2000; i++) {
    if (!pattern) {
      yield EXCHANGES[i % EXCHANGES.length]! + fill(4);
      continue;
    }
    const room = 7 - pattern.length;
    if (room < 0) return;
    if (mode === 'starts_with') yield pattern + fill(room);
    else if (mode === 'ends_with') yield fill(room) + pattern;
    else {
      const at = room === 0 ? 0 : i % (room + 1);
      yield fill(at) + pattern + fill(room - at);
    }
  }
}

/**
 * Numbers on offer for `query`, excluding `taken` (E.164 numbers currently sold).
 * Local searches need a 3-digit area code; `pattern` is digits only (≤ 7).
 */
export function generateInventory(query: NumberSearch, taken: ReadonlySet<string>): AvailableNumber[] {
  const limit = query.limit ?? 20;
  const pattern = (query.pattern ?? '').replace(/\D/g, '');
  const mode = query.mode ?? 'contains';
  const out: AvailableNumber[] = [];
  const seen = new Set<string>();
  if (query.kind === 'toll_free') {
    const prefixes = !query.areaCode || query.areaCode === '8**' ? [...TOLL_FREE_AREA_CODES] : [query.areaCode];
    const gens = prefixes.map((p) => ({ p, g: subscribers(`tf${p}`, pattern, mode) }));
    for (let round = 0; round < 2000 && out.length < limit; round++) {
      const { p, g } = gens[round % gens.length]!;
      const sub = g.next();
      if (sub.done) continue;
      add(`+1${p}${sub.value}`, 'toll_free', null, TOLL_FREE_PROVIDER_ID);
    }
    return out;
  }
  const area = query.areaCode ?? '';
  if (!/^[2-9]\d\d$/.test(area)) return [];
  const place = AREA_CODES[area] ?? null;
  for (const sub of subscribers(`ac${area}`, pattern, mode)) {
    if (out.length >= limit) break;
    if (!validExchange(sub)) continue;
    add(`+1${area}${sub}`, 'local', place, LOCAL_PROVIDER_ID);
  }
  return out;

  function add(number: string, kind: 'local' | 'toll_free', placeInfo: { state: string; city: string } | null, provider: number) {
    if (seen.has(number) || taken.has(number) || parsePhone(number) !== number) return;
    seen.add(number);
    out.push({ number, kind, region: placeInfo?.state ?? null, locality: placeInfo?.city ?? null, provider_id: provider });
  }
}
