/**
 * The Phone simulator's API (spec 002 §7 "Phone simulator"; docs/telephony.md "Simulator and
 * tenants"; only with a simulated carrier, `carrier.capabilities.simulator`: absent, hence 404,
 * otherwise). It plays outside callers and texters, for the signed-in user's own companies only
 * (docs/telephony.md "Simulator and tenants"): calls and texts go only to a number of a company
 * the user belongs to, and a handset shows only the messages exchanged with such numbers. An
 * operator (modules/auth/operators.ts) may reach every sandbox number.
 *
 * - POST /api/simulator/calls     {from, to, digits?, forwards?, confirm?, voicemail_seconds?, talk_seconds?} → {sid, status, log}
 * - POST /api/simulator/messages  {from, to, body, media_urls?} → {data: HandsetMessage, webhook_status}
 * - GET  /api/simulator/handsets/{number}/messages → {data: HandsetMessage[]} (oldest first)
 * Calls placed from the browser (docs/calling.md "Sandbox"):
 * - POST /api/simulator/softphone/connect {token} → {sid, status}: the sandbox softphone connects the
 *   call its token was issued for (only the token's own user; 422 `token` otherwise)
 * - GET  /api/simulator/handset-calls → {data: HandsetCall[]}: outside handsets rung from the user's
 *   companies' numbers (live first, then the latest 20 ended)
 * - POST /api/simulator/handset-calls/{sid}/answer | reject | hangup → {data: HandsetCall} (409 when
 *   the call is no longer in that state; 404 for a call from another company's number)
 * - POST /api/simulator/handset-calls/{sid}/say {speaker: caller|agent, text} → {data: HandsetCall}:
 *   a line said during the answered call, spoken into its recording (409 when not talking or at
 *   HANDSET_MAX_LINES lines; 404 as above)
 */
import {
  ErrorBody,
  HandsetCallBody,
  HandsetCallParams,
  HandsetCallsBody,
  HandsetSayInput,
  HANDSET_MAX_LINES,
  SoftphoneConnectBody,
  SoftphoneConnectInput,
  HandsetMessagesBody,
  HandsetParams,
  SimulateCallBody,
  SimulateCallInput,
  SimulateMessageBody,
  SimulateMessageInput,
  errorResponses,
} from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { App } from '../../platform/http/app-type.js';
import { access } from '../../platform/http/access.js';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../platform/auth/auth.plugin.js';
import { userIdOfIdentity } from '../in-app-calling/in-app-calling.service.js';
import { verifySandboxClientToken } from '../../carriers/sandbox/sandbox.token.js';
import { ConflictError, NotFoundError, fieldError, ValidationError } from '../../platform/http/errors.js';
import {
  HandsetCallStateError,
  answerHandsetCall,
  connectSoftphoneCall,
  handsetCallsRepository,
  hangupHandsetCall,
  rejectHandsetCall,
  sayLine,
  type HandsetCallRow,
} from '../../carriers/sandbox/sandbox.handset-calls.js';
import { announceOutbound, waitForBrowserAnswerOfCall } from '../in-app-calling/outbound.service.js';
import { assertFetchableUrl, UnsafeUrlError } from '../../platform/http/safe-fetch.js';
import type { SandboxMessageRow } from '../../carriers/sandbox/sandbox.repository.js';
import { handsetMessages, simulateCall, simulateMessage, type BrowserLegs } from '../../carriers/sandbox/sandbox.simulator.js';
import { synthesize } from '../greetings/speech.js';
import { isOperator } from '../auth/operators.js';
import { listUserCompanies } from '../companies/companies.service.js';
import { waitForBrowserAnswer, waitForBrowserHangup } from '../in-app-calling/in-app-calling.service.js';
import { findNumberByE164 } from '../numbers/numbers.service.js';

const NOT_SANDBOX_NUMBER = 'This number is not served by the sandbox carrier.';
/** Same answer for another company's number as for an unknown one: nothing is revealed. */
const NOT_YOUR_NUMBER = NOT_SANDBOX_NUMBER;

/**
 * Which business numbers the user may simulate against: `'all'` for an operator, else a
 * predicate over E.164 numbers (active numbers of the user's companies; looked up once each).
 */
async function numberScope(ctx: AppContext, userId: number): Promise<'all' | ((e164: string) => Promise<boolean>)> {
  if (await isOperator(ctx, userId)) return 'all';
  const companies = new Set((await listUserCompanies(ctx, userId)).map((c) => c.id));
  const seen = new Map<string, boolean>();
  return async (e164) => {
    let ok = seen.get(e164);
    if (ok === undefined) {
      const n = await findNumberByE164(ctx, e164);
      seen.set(e164, (ok = Boolean(n && companies.has(n.company_id))));
    }
    return ok;
  };
}

/** @throws ValidationError on `to` unless the user may simulate against that number. */
async function assertOwnNumber(ctx: AppContext, userId: number, to: string): Promise<void> {
  const scope = await numberScope(ctx, userId);
  if (scope !== 'all' && !(await scope(to))) throw fieldError('to', NOT_YOUR_NUMBER);
}

/**
 * Media URLs must be http(s) and not name a non-public address literally (the download itself
 * is guarded again at connect time, platform/http/safe-fetch.ts). @throws ValidationError
 */
function checkMediaUrls(urls: string[] | undefined): void {
  const errors: Record<string, string[]> = {};
  (urls ?? []).forEach((u, i) => {
    try {
      assertFetchableUrl(u);
    } catch (e) {
      if (!(e instanceof UnsafeUrlError)) throw e;
      errors[`media_urls.${i}`] = ['The media URL must be a public http or https address.'];
    }
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function phone(field: string, value: string): string {
  const e164 = parsePhone(value);
  if (!e164) throw fieldError(field, 'The number is not a valid phone number.');
  return e164;
}

function handsetMessage(m: SandboxMessageRow) {
  const inbound = m.direction === 'inbound';
  return {
    sid: m.sid,
    direction: m.direction as 'inbound' | 'outbound',
    from: m.from_number,
    to: m.to_number,
    business_number: inbound ? m.to_number : m.from_number,
    body: m.body,
    media: m.media,
    status: m.status,
    error_code: m.error_code,
    created_at: m.created_at.toISOString(),
  };
}

/** The simulated carrier's `<Client>` legs are answered by browser users through in-app calling. */
function browserLegs(ctx: AppContext): BrowserLegs {
  return {
    waitForAnswer: (sid, timeoutMs) => waitForBrowserAnswer(ctx, sid, timeoutMs),
    waitForHangup: (callId, maxMs) => waitForBrowserHangup(ctx, callId, maxMs),
    waitForCallAnswer: (callId, timeoutMs) => waitForBrowserAnswerOfCall(ctx, callId, timeoutMs),
  };
}

function handsetCall(r: HandsetCallRow) {
  return {
    sid: r.sid,
    from: r.from_number,
    to: r.to_number,
    state: r.state as 'ringing' | 'answered' | 'ended',
    end_reason: r.end_reason,
    on_hold: r.on_hold,
    digits: r.digits,
    transferred_to: r.transferred_to,
    hold_music_url: r.on_hold ? r.hold_music_url : null,
    lines: r.lines,
    created_at: r.created_at.toISOString(),
    answered_at: r.answered_at ? r.answered_at.toISOString() : null,
  };
}

/** The handset call `sid` when it was placed from one of the user's numbers. @throws NotFoundError 404 */
async function ownHandsetCall(ctx: AppContext, userId: number, sid: string): Promise<HandsetCallRow> {
  const row = await handsetCallsRepository.find(ctx.db, sid);
  const scope = await numberScope(ctx, userId);
  if (!row || (scope !== 'all' && !(await scope(row.from_number)))) throw new NotFoundError('Call');
  return row;
}

/** Runs a handset change; a call no longer in the needed state answers 409. */
async function change(run: () => Promise<HandsetCallRow>): Promise<HandsetCallRow> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HandsetCallStateError) throw new ConflictError(e.message);
    throw e;
  }
}

/** Registers the Phone simulator's routes when the carrier is simulated. */
export async function registerSimulatorRoutes(app: App, ctx: AppContext): Promise<void> {
  if (!ctx.carrier.capabilities.simulator) return;

  app.post(
    '/api/simulator/calls',
    { config: { access: access.signedIn() }, schema: { tags: ['simulator'], body: SimulateCallInput, response: { 200: SimulateCallBody, ...errorResponses } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const b = request.body;
      const from = phone('from', b.from);
      const to = phone('to', b.to);
      await assertOwnNumber(ctx, userId, to);
      const forwards = b.forwards ? Object.fromEntries(Object.entries(b.forwards).map(([k, v]) => [parsePhone(k) ?? k, v])) : undefined;
      // Typed lines are spoken with the product's speech synthesizer into the recording (docs/transcription.md).
      const result = await simulateCall(ctx, { ...b, from, to, forwards }, browserLegs(ctx), (text) => synthesize(text));
      if (!result) throw fieldError('to', NOT_SANDBOX_NUMBER);
      return result;
    },
  );

  app.post(
    '/api/simulator/messages',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['simulator'], body: SimulateMessageInput, response: { 200: SimulateMessageBody, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      const b = request.body;
      const from = phone('from', b.from);
      const to = phone('to', b.to);
      checkMediaUrls(b.media_urls);
      await assertOwnNumber(ctx, userId, to);
      const result = await simulateMessage(ctx, { from, to, body: b.body, media_urls: b.media_urls });
      if (!result) throw fieldError('to', NOT_SANDBOX_NUMBER);
      return { data: handsetMessage(result.row), webhook_status: result.webhookStatus };
    },
  );

  app.post(
    '/api/simulator/softphone/connect',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['simulator'], body: SoftphoneConnectInput, response: { 200: SoftphoneConnectBody, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      // Only the user the token was issued to connects with it (as only their browser holds it).
      const t = verifySandboxClientToken(ctx.config, request.body.token);
      if (!t || userIdOfIdentity(t.sub) !== userId) throw fieldError('token', 'The call token is not valid.');
      // The lines typed for the handset and the agent are spoken with the product's speech synthesizer (docs/calling.md "Sandbox").
      const r = await connectSoftphoneCall(ctx, request.body.token, browserLegs(ctx), (text) => synthesize(text));
      if (!r) throw fieldError('token', 'The call token is not valid.');
      return r;
    },
  );

  app.get(
    '/api/simulator/handset-calls',
    { config: { access: access.signedIn() }, schema: { tags: ['simulator'], response: { 200: HandsetCallsBody, ...errorResponses } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const scope = await numberScope(ctx, userId);
      const rows = await handsetCallsRepository.list(ctx.db, { limit: 200 });
      const visible: HandsetCallRow[] = [];
      let ended = 0;
      for (const r of rows) {
        if (scope !== 'all' && !(await scope(r.from_number))) continue;
        if (r.state === 'ended' && ++ended > 20) continue;
        visible.push(r);
      }
      return { data: visible.map(handsetCall) };
    },
  );

  const conflict = { ...errorResponses, 409: ErrorBody };
  app.post(
    '/api/simulator/handset-calls/:sid/answer',
    { config: { access: access.signedIn() }, schema: { tags: ['simulator'], params: HandsetCallParams, response: { 200: HandsetCallBody, ...conflict } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const own = await ownHandsetCall(ctx, userId, request.params.sid);
      const row = await change(() => answerHandsetCall(ctx, own.sid));
      // What the Voice SDK learns from its media connection: the callee picked up.
      if (row.call_ref) await announceOutbound(ctx, { callId: Number(row.call_ref), state: 'answered' });
      return { data: handsetCall(row) };
    },
  );

  app.post(
    '/api/simulator/handset-calls/:sid/reject',
    { config: { access: access.signedIn() }, schema: { tags: ['simulator'], params: HandsetCallParams, response: { 200: HandsetCallBody, ...conflict } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const own = await ownHandsetCall(ctx, userId, request.params.sid);
      return { data: handsetCall(await change(() => rejectHandsetCall(ctx, own.sid))) };
    },
  );

  app.post(
    '/api/simulator/handset-calls/:sid/hangup',
    { config: { access: access.signedIn() }, schema: { tags: ['simulator'], params: HandsetCallParams, response: { 200: HandsetCallBody, ...conflict } } },
    async (request) => {
      const { userId } = requireAuth(request);
      const own = await ownHandsetCall(ctx, userId, request.params.sid);
      return { data: handsetCall(await change(() => hangupHandsetCall(ctx, own.sid))) };
    },
  );

  app.post(
    '/api/simulator/handset-calls/:sid/say',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['simulator'], params: HandsetCallParams, body: HandsetSayInput, response: { 200: HandsetCallBody, ...conflict } },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      const own = await ownHandsetCall(ctx, userId, request.params.sid);
      return { data: handsetCall(await change(() => sayLine(ctx, own.sid, request.body, HANDSET_MAX_LINES))) };
    },
  );

  app.get(
    '/api/simulator/handsets/:number/messages',
    {
      config: { access: access.signedIn() },
      schema: { tags: ['simulator'], params: HandsetParams, response: { 200: HandsetMessagesBody, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireAuth(request);
      const number = phone('number', request.params.number);
      const scope = await numberScope(ctx, userId);
      const rows = await handsetMessages(ctx, number);
      // Only the messages exchanged with the user's own business numbers.
      const visible = [];
      for (const m of rows) {
        if (scope === 'all' || (await scope(m.direction === 'inbound' ? m.to_number : m.from_number))) visible.push(m);
      }
      return { data: visible.map(handsetMessage) };
    },
  );
}
