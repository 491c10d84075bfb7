/** The pure call-flow engine: routing data → call-flow steps. */
import { describe, expect, it } from 'vitest';
import { applyPreset, newRouteEntry, type RouteEntry } from '@switchboard/domain';
import { decideAfterDial, decideInboundStep, decideMenuChoice, flowUrls, menuText } from './routing.service.js';

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
const number = (routes: RouteEntry[], preset = 1) => ({ number: '+12125550100', routes, schedule: applyPreset(preset as 1, 'UTC') });
const monday10 = new Date('2025-03-03T10:00:00Z');
const sunday10 = new Date('2025-03-02T10:00:00Z');

describe('call-flow engine', () => {
  it('builds the menu wording from labels and extensions', () => {
    expect(menuText([entry({ extension: 1, label: 'Sales' }), entry({ extension: 12, label: '' })])).toBe('For Sales, press 1. For extension 12, press 12.');
    const d = decideInboundStep(number([entry({ extension: 1, label: 'Sales' }), entry({ extension: 12 })]), monday10, urls);
    expect(d.steps[0]).toMatchObject({ kind: 'gather', numDigits: 2, timeoutS: 5 });
  });

  it('closed schedule: voicemail when enabled, else closed message; Direct Voicemail always records', () => {
    const vm = decideInboundStep(number([entry({ voicemail_enabled: true, forwards: [{ number: '+16465550101' }] })], 2), sunday10, urls);
    expect(vm.outcome).toBe('voicemail');
    const closed = decideInboundStep(number([entry({ forwards: [{ number: '+16465550101' }] })], 2), sunday10, urls);
    expect(closed.outcome).toBe('closed');
    const open = decideInboundStep(number([entry({ forwards: [{ number: '+16465550101' }] })], 2), monday10, urls);
    expect(open.outcome).toBe('dial');
    expect(decideInboundStep(number([entry({ forwards: [{ number: '+16465550101' }] })], 5), monday10, urls).outcome).toBe('voicemail');
  });

  it('replays the menu after an invalid or missing choice (two replays by default), then connects the first extension', () => {
    const n = number([entry({ extension: 1, forwards: [{ number: '+16465550101' }] }), entry({ extension: 2 })]);
    const invalid = decideMenuChoice(n, '7', 1, monday10, urls);
    expect(invalid).toMatchObject({ outcome: 'menu', menuNext: 'replay' });
    expect(invalid.steps[0]).toMatchObject({ kind: 'gather', action: urls.gather(2) });
    expect((invalid.steps[0] as { prompt: Array<{ text?: string }> }).prompt[0]!.text).toBe('Sorry, that is not a valid choice.');
    const silent = decideMenuChoice(n, '', 2, monday10, urls);
    expect(silent).toMatchObject({ outcome: 'menu', menuNext: 'replay' });
    expect((silent.steps[0] as { prompt: Array<{ text?: string }> }).prompt[0]!.text).toBe('Sorry, we did not get your choice.');
    const fallback = decideMenuChoice(n, '9', 3, monday10, urls);
    expect(fallback).toMatchObject({ outcome: 'dial', menuNext: 'first', dialing: ['+16465550101'] });
    expect(fallback.entry?.extension).toBe(1);
    expect(fallback.steps[0]).toEqual({ kind: 'say', text: 'Sorry, that is not a valid choice. Please hold while we connect your call.' });
  });

  it("honours the number's menu settings: replays 0 to 5, fallback voicemail or hang up", () => {
    const routes = [entry({ extension: 1, label: 'Sales' }), entry({ extension: 2 })];
    const none = { ...number(routes), menu: { replays: 0, fallback: 'voicemail' as const } };
    const vm = decideMenuChoice(none, '', 1, monday10, urls);
    expect(vm).toMatchObject({ outcome: 'voicemail', menuNext: 'voicemail' });
    expect(vm.entry?.extension).toBe(1);
    expect(vm.steps.map((x) => x.kind)).toEqual(['say', 'say', 'record', 'say', 'hangup']);
    const five = { ...number(routes), menu: { replays: 5, fallback: 'hangup' as const } };
    for (let attempt = 1; attempt <= 5; attempt++) expect(decideMenuChoice(five, '8', attempt, monday10, urls).menuNext).toBe('replay');
    expect(decideMenuChoice(five, '8', 6, monday10, urls)).toMatchObject({ outcome: 'hangup', menuNext: 'hangup' });
    expect(decideMenuChoice(five, '2', 6, monday10, urls).entry?.extension).toBe(2);
  });

  it('sequential dials one forward at a time, then voicemail when enabled', () => {
    const e = entry({ type: 'sequential', voicemail_enabled: true, forwards: [{ number: '+16465550101' }, { number: '+16465550102' }] });
    const n = number([e]);
    const first = decideInboundStep(n, monday10, urls);
    expect(first.dialing).toEqual(['+16465550101']);
    expect(decideAfterDial(n, e, 'no-answer', 0, monday10, urls).dialing).toEqual(['+16465550102']);
    expect(decideAfterDial(n, e, 'no-answer', 1, monday10, urls).outcome).toBe('voicemail');
    expect(decideAfterDial(n, e, 'completed', 1, monday10, urls).outcome).toBe('connected');
  });
});
