/** The call-flow engine (docs/telephony.md "Engine additions"): every routing type, stagger, round robin, geo, override, holidays, DST, greetings. */
import { describe, expect, it } from 'vitest';
import { applyPreset, newRouteEntry, type RouteEntry } from '@switchboard/domain';
import {
  STAGGER_LEG_TIMEOUT_S,
  decideAfterDial,
  decideAfterTransfer,
  decideInboundStep,
  flowUrls,
  isNumberOpen,
  whisperSteps,
  type RoutingExtras,
  type RoutingNumber,
} from './routing.service.js';

/** Webhook URLs as an adapter builds them (kind + query). */
const urls = flowUrls(
  {
    webhookUrl: (kind, q) =>
      `https://x.test/${kind}?${Object.entries(q ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${v}`)
        .join('&')}`,
  },
  'CA1',
);
const entry = (over: Partial<RouteEntry>): RouteEntry => ({ ...newRouteEntry('UTC'), ...over });
const fw = (...n: string[]) => n.map((number) => ({ number }));
const num = (routes: RouteEntry[], extras: RoutingExtras = {}, schedule = applyPreset(1, 'UTC')): RoutingNumber => ({
  number: '+12125550100',
  routes,
  schedule,
  extras,
});
const monday10 = new Date('2025-03-03T10:00:00Z');
const dialOf = (d: ReturnType<typeof decideInboundStep>) => d.steps.find((s) => s.kind === 'dial') as Extract<(typeof d.steps)[number], { kind: 'dial' }>;

describe('routing types', () => {
  it('standard and simultaneous ring every forward at once', () => {
    for (const type of ['standard', 'simultaneous'] as const) {
      expect(decideInboundStep(num([entry({ type, forwards: fw('+16465550101', '+16465550102') })]), monday10, urls).dialing).toEqual([
        '+16465550101',
        '+16465550102',
      ]);
    }
  });

  it('voicemail type records at once; voicemail off with no forwards says no one is available', () => {
    expect(decideInboundStep(num([entry({ type: 'voicemail', forwards: fw('+16465550101') })]), monday10, urls).outcome).toBe('voicemail');
    expect(decideInboundStep(num([entry({ forwards: [] })]), monday10, urls).outcome).toBe('no-answer');
  });

  it('geo sends the caller to the forwards of their state, else the static fallback, else unanswered', () => {
    const forwards = [{ number: '+13125550101', states: ['IL'] }, { number: '+12125550102', states: ['NY', 'NJ'] }, { number: '+16465550103' }];
    const e = entry({ type: 'geo', forwards, voicemail_enabled: true });
    expect(decideInboundStep(num([e], { fromState: 'NY' }), monday10, urls).dialing).toEqual(['+12125550102']);
    expect(decideInboundStep(num([e], { fromState: 'il' }), monday10, urls).dialing).toEqual(['+13125550101']);
    expect(decideInboundStep(num([e], { fromState: 'TX' }), monday10, urls).dialing).toEqual(['+16465550103']);
    const noFallback = entry({ type: 'geo', forwards, geo_by_state_static_fallback: false, voicemail_enabled: true });
    expect(decideInboundStep(num([noFallback], { fromState: 'TX' }), monday10, urls).outcome).toBe('voicemail');
  });

  it('in-app calling dials a <Client> per active user; nobody active → voicemail', () => {
    const e = entry({ type: 'in-app-calling', voicemail_enabled: true });
    const d = decideInboundStep(num([e], { activeClients: ['user_1', 'user_2'] }), monday10, urls);
    expect(dialOf(d)).toMatchObject({ clients: ['user_1', 'user_2'], numbers: [] });
    expect(decideInboundStep(num([e], { activeClients: [] }), monday10, urls).outcome).toBe('voicemail');
  });

  it('stagger rings one forward after another with the shorter leg timeout', () => {
    const e = entry({ stagger: true, timeout: 30, forwards: fw('+16465550101', '+16465550102') });
    const n = num([e]);
    const first = decideInboundStep(n, monday10, urls);
    expect(first.dialing).toEqual(['+16465550101']);
    expect(dialOf(first).timeoutS).toBe(STAGGER_LEG_TIMEOUT_S);
    expect(decideAfterDial(n, e, 'no-answer', 0, monday10, urls).dialing).toEqual(['+16465550102']);
  });

  it('round robin: each call starts with the next forward, then tries the rest in order', () => {
    const e = entry({ round_robin: 'forwards', forwards: fw('+16465550101', '+16465550102', '+16465550103') });
    const starts = [0, 1, 2, 3].map((c) => decideInboundStep(num([e], { roundRobinCursor: c }), monday10, urls).dialing![0]);
    expect(starts).toEqual(['+16465550101', '+16465550102', '+16465550103', '+16465550101']);
    const d = decideInboundStep(num([e], { roundRobinCursor: 1 }), monday10, urls);
    expect(dialOf(d).action).toContain('rr=1');
    expect(decideAfterDial(num([e]), e, 'no-answer', 0, monday10, urls, 1).dialing).toEqual(['+16465550103']);
    expect(decideAfterDial(num([e]), e, 'no-answer', 1, monday10, urls, 1).dialing).toEqual(['+16465550101']);
  });

  it('caller ID pass-through, ring timeout and on-hold greeting', () => {
    const e = entry({ caller_id_pass_thru: false, timeout: 25, onhold_music_id: 7, forwards: fw('+16465550101') });
    const d = decideInboundStep(num([e], { greetingUrlsById: { 7: 'https://x.test/files/hold.wav' } }), monday10, urls);
    expect(d.steps[0]).toEqual({ kind: 'play', url: 'https://x.test/files/hold.wav' });
    expect(dialOf(d)).toMatchObject({ callerId: '+12125550100', timeoutS: 25 });
    expect(dialOf(decideInboundStep(num([entry({ forwards: fw('+16465550101') })]), monday10, urls)).callerId).toBeUndefined();
  });

  it('plays assigned greetings: menu prompt, voicemail greeting and whisper', () => {
    const greetingUrls = { '0:menu': 'https://x.test/menu.wav', '1:voicemail': 'https://x.test/vm.wav' };
    const menu = decideInboundStep(num([entry({ extension: 1 }), entry({ extension: 2 })], { greetingUrls }), monday10, urls);
    expect(menu.steps[0]).toMatchObject({ kind: 'gather', prompt: [{ kind: 'play', url: 'https://x.test/menu.wav' }] });
    const vm = decideInboundStep(num([entry({ type: 'voicemail' })], { greetingUrls }), monday10, urls);
    expect(vm.steps[0]).toEqual({ kind: 'play', url: 'https://x.test/vm.wav' });
    const w = whisperSteps(entry({ confirm_key: 1, confirm_whisper: 'ignored' }), 'https://x.test/c', 'https://x.test/w.wav');
    expect(w[0]).toMatchObject({
      kind: 'gather',
      prompt: [
        { kind: 'play', url: 'https://x.test/w.wav' },
        { kind: 'say', text: 'Press 1 to accept the call.' },
      ],
    });
  });
});

describe('schedule evaluation: override → holidays → schedule', () => {
  const ny = applyPreset(2, 'America/New_York'); // Mon-Fri 09:00-17:00 New York
  const e = entry({ forwards: fw('+16465550101') });

  it('stays right across the daylight-saving change (2025-03-10, first weekday after the US switch)', () => {
    // Friday 2025-03-07 (EST, UTC-5): 09:30 local = 14:30Z; Monday 2025-03-10 (EDT, UTC-4): 09:30 local = 13:30Z.
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-07T14:30:00Z'))).toBe(true);
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-07T13:30:00Z'))).toBe(false); // 08:30 EST
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-10T13:30:00Z'))).toBe(true); // 09:30 EDT
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-10T12:30:00Z'))).toBe(false); // 08:30 EDT
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-10T20:59:00Z'))).toBe(true); // 16:59 EDT
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-03-10T21:00:00Z'))).toBe(false); // 17:00 EDT
  });

  it('a holiday (local date in the schedule zone) is closed', () => {
    // 2025-12-25 10:00 New York = 15:00Z; at 02:00Z on the 26th it is still the 25th in New York.
    const n = num([e], { holidays: ['2025-12-25'] }, ny);
    expect(isNumberOpen(n, new Date('2025-12-25T15:00:00Z'))).toBe(false);
    expect(isNumberOpen(num([e], {}, ny), new Date('2025-12-25T15:00:00Z'))).toBe(true);
    expect(decideInboundStep(n, new Date('2025-12-25T15:00:00Z'), urls).outcome).toBe('closed');
  });

  it('the manual override wins over holidays and hours until it expires', () => {
    const sunday = new Date('2025-03-09T15:00:00Z');
    expect(decideInboundStep(num([e], { override: { mode: 'open', until: null } }, ny), sunday, urls).outcome).toBe('dial');
    expect(
      decideInboundStep(num([e], { override: { mode: 'open', until: null }, holidays: ['2025-12-25'] }, ny), new Date('2025-12-25T15:00:00Z'), urls).outcome,
    ).toBe('dial');
    expect(decideInboundStep(num([e], { override: { mode: 'closed', until: null } }, ny), monday10Ny(), urls).outcome).toBe('closed');
    expect(decideInboundStep(num([e], { override: { mode: 'closed', until: new Date('2025-03-03T14:00:00Z') } }, ny), monday10Ny(), urls).outcome).toBe('dial');
  });
});

function monday10Ny(): Date {
  return new Date('2025-03-03T15:00:00Z');
} // 10:00 EST

describe('after a transfer nobody took', () => {
  const routes = [entry({ extension: 1, voicemail_enabled: false }), entry({ extension: 2, voicemail_enabled: true })];
  it("takes the voicemail of the call's extension, announced first", () => {
    const d = decideAfterTransfer(num(routes), 2, urls);
    expect(d.outcome).toBe('voicemail');
    expect(d.steps[0]).toEqual({ kind: 'say', text: 'The person you were transferred to is not available.' });
    expect(d.steps.find((x) => x.kind === 'record')).toMatchObject({ action: 'https://x.test/voice.recording?ext=2' });
  });
  it('says goodbye when the extension takes no messages; an unknown extension is the first', () => {
    for (const ext of [1, null, 9]) {
      const d = decideAfterTransfer(num(routes), ext, urls);
      expect(d.outcome).toBe('hangup');
      expect(d.steps.map((x) => x.kind)).toEqual(['say', 'say', 'hangup']);
    }
    expect(decideAfterTransfer(num([]), 1, urls).outcome).toBe('hangup');
  });
});
