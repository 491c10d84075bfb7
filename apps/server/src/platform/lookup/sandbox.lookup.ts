/**
 * The offline lookup provider (`LOOKUP=sandbox`, the default; docs/caller-id.md "Sandbox"). It
 * behaves like a CNAM provider: a small directory of known numbers answers with an upper-case
 * name, caller type and line type; any other number is "not found" (line type derived from the
 * number plan: toll-free for 8XX, else landline); every answer takes `latencyMs`. Failures can be
 * triggered: numbers whose last four digits are 0503 always fail (provider unavailable), and
 * `failNextSandboxLookups(n)` makes the next n lookups fail (tests). Names set with
 * `setSandboxCallerName` (the Phone simulator, tests) join the directory for this process.
 */
import { LookupUnavailableError, type LookupAnswer, type LookupPort } from './lookup.port.js';

type Entry = { name: string; type: 'business' | 'consumer'; line: string; carrier: string };

/** The directory: demo customers (seed/demo.ts), the simulator's default outside number and a few more. */
const DIRECTORY: Record<string, Entry> = {
  '+13125550147': { name: 'LOPEZ MARIA', type: 'consumer', line: 'mobile', carrier: 'T-Mobile USA, Inc.' },
  '+14155550198': { name: 'CARTER PLUMBING', type: 'business', line: 'landline', carrier: 'Pacific Bell' },
  '+16175550123': { name: 'SHAH PRIYA', type: 'consumer', line: 'mobile', carrier: 'Verizon Wireless' },
  '+12025550143': { name: 'CAPITOL HVAC CO', type: 'business', line: 'landline', carrier: 'Verizon Washington, DC Inc.' },
  '+13125557777': { name: 'NGUYEN THOMAS', type: 'consumer', line: 'mobile', carrier: 'AT&T Wireless' },
  '+13125551234': { name: 'ROSSI GIULIA', type: 'consumer', line: 'nonFixedVoip', carrier: 'Bandwidth.com' },
  '+16465550102': { name: 'BROOKLYN DENTAL', type: 'business', line: 'fixedVoip', carrier: 'Level 3 Communications' },
  '+16465550103': { name: 'OKAFOR CHIDI', type: 'consumer', line: 'mobile', carrier: 'Sprint Spectrum, L.P.' },
};

const added = new Map<string, Entry>();
let failuresPending = 0;

/** Adds (or replaces) a directory entry for this process: the sandbox then answers `name` for `e164`. */
export function setSandboxCallerName(e164: string, name: string, type: 'business' | 'consumer' = 'consumer'): void {
  added.set(e164, { name: name.toUpperCase().slice(0, 15), type, line: 'mobile', carrier: 'Sandbox Wireless' });
}

/** Makes the next `n` sandbox lookups fail with `LookupUnavailableError` (tests of provider failures). */
export function failNextSandboxLookups(n: number): void {
  failuresPending = n;
}

/** Numbers that always fail (last four digits 0503), so a person can try a provider failure by hand. */
export function isSandboxFailureNumber(e164: string): boolean {
  return e164.endsWith('0503');
}

/** The sandbox adapter; every answer waits `latencyMs` like a provider round trip. */
export function createSandboxLookup(latencyMs: number): LookupPort {
  return {
    name: 'sandbox',
    async lookup(e164: string): Promise<LookupAnswer> {
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      if (failuresPending > 0) {
        failuresPending -= 1;
        throw new LookupUnavailableError('The sandbox lookup provider is unavailable (simulated failure)', 503);
      }
      if (isSandboxFailureNumber(e164)) throw new LookupUnavailableError('The sandbox lookup provider is unavailable for numbers ending in 0503', 503);
      const entry = added.get(e164) ?? DIRECTORY[e164];
      const nanp = e164.startsWith('+1') && e164.length === 12;
      const tollFree = nanp && /^\+18(00|33|44|55|66|77|88)/.test(e164);
      if (!entry) {
        return {
          e164,
          found: false,
          callerName: null,
          callerType: null,
          lineType: tollFree ? 'tollFree' : nanp ? 'landline' : null,
          carrierName: null,
          countryCode: nanp ? 'US' : null,
        };
      }
      return {
        e164,
        found: true,
        callerName: entry.name,
        callerType: entry.type,
        lineType: entry.line,
        carrierName: entry.carrier,
        countryCode: nanp ? 'US' : null,
      };
    },
  };
}
