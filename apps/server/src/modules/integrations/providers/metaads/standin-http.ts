/**
 * A local stand-in HTTP server for the provider adapters' tests (docs/integrations-providers.md "Tests"): it serves a
 * provider's in-process sandbox ({@link ProviderSandbox.fetch}) on a loopback port, so the real adapter talks real HTTP
 * (headers, status codes, bodies serialised) to an emulation of the provider's API. Tests can put an `intercept` in
 * front of it to answer some requests themselves (a 429 with its headers, a 500, an expired token) and record the
 * requests it received. Used by the tests of every provider folder this file's author owns (metaads, microsoftads,
 * hubspot, salesforce, gohighlevel, adf); nothing in production imports it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryAttribution, DeliveryCall, DeliveryContact, DeliveryItem, FetchLike, ProviderConnection, ProviderSandbox } from '../provider.js';

/** One request the stand-in received, as the provider would have seen it. */
export type RecordedRequest = { method: string; path: string; headers: Record<string, string>; body: string };

/** A running stand-in: its base URL (`http://127.0.0.1:<port>`), the requests it saw, and `close()`. */
export type StandIn = {
  baseUrl: string;
  requests: RecordedRequest[];
  /** A fetch that only reaches this stand-in (what the framework would pass as `conn.fetch`). */
  fetch: FetchLike;
  close(): Promise<void>;
};

/**
 * Starts the stand-in on 127.0.0.1 (a free port).
 * @param sandbox the provider's emulation
 * @param intercept optional: return a Response to answer a request instead of the sandbox (undefined → the sandbox answers)
 */
export async function startStandIn(
  sandbox: ProviderSandbox,
  intercept?: (req: RecordedRequest, index: number) => Response | undefined | Promise<Response | undefined>,
): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
        requests.push(recorded);
        const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`;
        const answer =
          (await intercept?.(recorded, requests.length - 1)) ??
          (await sandbox.fetch(new Request(url, { method: recorded.method, headers, body: ['GET', 'HEAD'].includes(recorded.method) ? undefined : body })));
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => (out[k] = v));
        res.writeHead(answer.status, out);
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    requests,
    fetch: (input, init) => fetch(input, init),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Deep-partial overrides for {@link sampleItem}. */
export type ItemOverrides = Partial<Omit<DeliveryItem, 'call' | 'contact' | 'attribution'>> & {
  call?: Partial<DeliveryCall> | null;
  contact?: Partial<DeliveryContact>;
  attribution?: Partial<DeliveryAttribution>;
};

/**
 * A realistic delivery item for tests: an answered inbound call of 95 s from +1 (555) 010-2030 to a tracking number,
 * started at `at` (default 2026-11-29T14:05:00.000Z), from a Meta and Microsoft click, contact Jane O'Neil.
 */
export function sampleItem(over: ItemOverrides = {}, at = '2026-11-29T14:05:00.000Z'): DeliveryItem {
  const call: DeliveryCall = {
    id: 4242,
    direction: 'inbound',
    callerNumber: '+15550102030',
    trackingNumber: '+15550009999',
    trackingNumberName: 'Meta – Spring sale',
    startedAt: at,
    durationS: 95,
    status: 'connected',
    answered: true,
    recordingUrl: 'https://app.example.com/files/recordings/4242.mp3?sig=abc',
    transcript: 'Caller: Hi, is the blue SUV still available? Agent: Yes, it is.',
    summary: 'Asked about the blue SUV; booked a test drive for Saturday.',
    outcome: null,
    departmentType: 'sales',
    qualification: 1,
    valueCents: 5000,
    currency: 'USD',
    url: 'https://app.example.com/calls/4242',
    ...(over.call ?? {}),
  };
  const attribution: DeliveryAttribution = {
    source: 'facebook',
    medium: 'cpc',
    campaign: 'spring-sale',
    keyword: null,
    landingPage: 'https://dealer.example.com/suv',
    referrer: 'https://m.facebook.com/',
    gclid: null,
    gbraid: null,
    wbraid: null,
    msclkid: 'b1a2c3d4e5f60718293a4b5c6d7e8f90',
    fbclid: 'IwAR2abcDEF',
    fbc: null,
    fbp: 'fb.1.1764400000000.1234567890',
    gaClientId: null,
    gaSessionId: null,
    sessionStartedAt: '2026-11-29T13:50:00.000Z',
    clientIp: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (iPhone)',
    firstTouch: null,
    lastTouch: null,
    ...(over.attribution ?? {}),
  };
  const contact: DeliveryContact = {
    id: 77,
    firstName: 'Jane',
    lastName: "O'Neil",
    name: "Jane O'Neil",
    email: ' Jane.ONeil@Example.COM ',
    phone: '+15550102030',
    ...(over.contact ?? {}),
  };
  const kind = over.kind ?? 'call';
  return {
    kind,
    deliveryKey: over.deliveryKey ?? `9:${kind}:${call.id}`,
    occurredAt: over.occurredAt ?? at,
    call: over.call === null ? null : call,
    text: over.text ?? null,
    attribution,
    contact,
    conversion: over.conversion === undefined ? { name: 'Contact', valueCents: 5000, currency: 'USD' } : over.conversion,
    previous: over.previous ?? null,
    settings: over.settings ?? {
      events: {
        anyCall: true,
        firstCall: false,
        qualifiedCall: false,
        minDurationS: null,
        outcomes: ['appt_booked'],
        lead: true,
        missedCall: false,
        voicemail: false,
        text: false,
      },
      conversions: {},
      filters: { numberIds: [], poolIds: [], sources: [] },
      provider: {},
    },
  };
}

/** A connection to a stand-in for tests (`now` fixed unless given). */
export function testConnection(
  provider: ProviderConnection['provider'],
  baseUrl: string,
  over: Partial<ProviderConnection> = {},
): ProviderConnection & { mails: Array<Parameters<ProviderConnection['sendMail']>[0]> } {
  const mails: Array<Parameters<ProviderConnection['sendMail']>[0]> = [];
  return {
    integrationId: 9,
    companyId: 3,
    provider,
    accessToken: 'sandbox-token-1',
    config: {},
    secrets: {},
    app: {},
    fetch: (input, init) => fetch(input, init),
    baseUrl,
    appOrigin: 'https://app.example.com',
    sendMail: async (m) => {
      mails.push(m);
    },
    now: () => new Date('2026-11-29T15:00:00.000Z'),
    ...over,
    mails,
  };
}
