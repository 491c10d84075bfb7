/**
 * Browser (Web Push) and APNs VoIP push of incoming calls and messages (spec 000 §7 `GET
 * /user/beam-token`; spec 001 "API keys" `POST /apns-voip-device-tokens`; docs/push.md).
 *
 * - Devices: a browser subscribes with the VAPID public key `beam-token` gives and sends its
 *   `PushSubscription` (endpoint + keys) here; an iOS app sends its PushKit VoIP token. Both belong
 *   to the signed-in user; a known endpoint or token moves to whoever registers it last.
 * - Pushes: an inbound message stored in a conversation (`message.received`) is pushed to the
 *   company's members who read the inbox (`inbox.read`) and see the number (users' `numberScope`: a
 *   `user` only the numbers assigned to them) and did not mute SMS of that number (notification blocks); a call ringing
 *   users in the app (in-app calling's ring listener) is pushed to each rung user who did not mute
 *   calls of that number, on their browsers and, when configured, through APNs VoIP.
 * - Each (user, event) becomes one `push_notifications` row (so a repeated event pushes once) and a
 *   `push.deliver` job, which sends to every device of the user through the configured adapter
 *   (platform/push) and records each outcome; a device the service says is gone (404/410) is deleted.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import {
  APNS_TOKEN_DELETED,
  APNS_TOKEN_SAVED,
  PUSH_SUBSCRIBED,
  PUSH_TEST_SENT,
  PUSH_UNSUBSCRIBED,
  type BeamTokenBody,
  type PushDevice,
  type PushNotificationOut,
  type PushSubscriptionInput,
} from '@switchboard/contracts';
import { formatPhone, roleCan } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { events } from '../../platform/events/index.js';
import type { MessageReceivedEvent } from '../../platform/events/message-events.js';
import { NotFoundError, fieldError } from '../../platform/http/errors.js';
import { createPushPort, type PushMessage, type PushOutcome, type PushPort } from '../../platform/push/index.js';
import { isLastAttempt } from '../../platform/queue.js';
import { listActiveMembers } from '../companies/companies.service.js';
import { findContactByNumber } from '../contacts/contacts.service.js';
import { type InAppRing } from '../in-app-calling/in-app-calling.service.js';
import { listNotificationBlocks } from '../notifications/notifications.service.js';
import { findNumberByE164, getCompanyNumber } from '../numbers/numbers.service.js';
import { numberScope } from '../users/members.service.js';
import { pushRepository, type ApnsTokenRow, type PushNotificationRow, type PushSubscriptionRow } from './push.repository.js';

/** The job that delivers one notification to every device of its user. */
export const DELIVER_JOB = 'push.deliver';
/** The service worker script the web app registers (apps/web/public/push-sw.js). */
export const SERVICE_WORKER = '/push-sw.js';
/** How long a pushed message waits for an offline device, s (a day). */
export const MESSAGE_TTL_S = 24 * 60 * 60;
/** Longest message body in a push, characters (the rest is cut with "…"). */
export const BODY_MAX = 180;
/** Notifications kept per user for the history (`GET /api/user/push-notifications`); older ones are deleted as new ones come. */
export const KEEP_PER_USER = 200;

const ports = new WeakMap<AppContext, Promise<PushPort>>();

/** The app's push port (built once per app from `config.push`). */
export function pushPortOf(ctx: AppContext): Promise<PushPort> {
  let p = ports.get(ctx);
  if (!p) {
    p = createPushPort(ctx.config.push, ctx.db, ctx.log);
    // A failed build (database down) is not cached: the next push tries again.
    p.catch(() => ports.delete(ctx));
    ports.set(ctx, p);
  }
  return p;
}

/** Closes the app's push port (APNs HTTP/2 session), if it was built. */
export async function closePushPort(ctx: AppContext): Promise<void> {
  const p = ports.get(ctx);
  ports.delete(ctx);
  if (p) await (await p).close();
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

function clip(text: string, max = BODY_MAX): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function webDevice(s: PushSubscriptionRow): PushDevice {
  return {
    id: Number(s.id),
    kind: 'web',
    label: URL.canParse(s.endpoint) ? new URL(s.endpoint).origin : 'Browser',
    user_agent: s.user_agent,
    created_at: iso(s.created_at)!,
    last_success_at: iso(s.last_success_at),
    last_failure_at: iso(s.last_failure_at),
  };
}

function apnsDevice(t: ApnsTokenRow): PushDevice {
  return {
    id: Number(t.id),
    kind: 'apns',
    label: t.device_name || 'iOS device',
    user_agent: null,
    created_at: iso(t.created_at)!,
    last_success_at: iso(t.last_success_at),
    last_failure_at: iso(t.last_failure_at),
  };
}

/**
 * `GET /api/user/beam-token` (spec 000 §7): the VAPID public key to subscribe with (`token`, also
 * `vapid_public_key`), the service worker to register and where to send the subscription.
 */
export async function beamToken(ctx: AppContext, userId: number): Promise<BeamTokenBody> {
  const port = await pushPortOf(ctx);
  return {
    token: port.vapidPublicKey,
    vapid_public_key: port.vapidPublicKey,
    user_id: userId,
    service_worker: SERVICE_WORKER,
    subscribe_path: '/api/user/push-subscriptions',
  };
}

/** Whether `host` (a URL's hostname) is a loopback, private or link-local address or a local name. */
export function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const v = net.isIP(h);
  if (v === 4) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (v === 6) return h === '::1' || h === '::' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:');
  return false;
}

/**
 * `POST /api/user/push-subscriptions`: stores the browser's subscription for the caller. In
 * production the endpoint must be an https URL of a public host (push services are; this keeps the
 * server from posting into its own network). @throws ValidationError (422) on `endpoint`.
 */
export async function subscribe(ctx: AppContext, userId: number, input: PushSubscriptionInput, userAgent: string | undefined) {
  const url = new URL(input.endpoint);
  if (ctx.config.production && (url.protocol !== 'https:' || isPrivateHost(url.hostname))) {
    throw fieldError('endpoint', 'The endpoint must be an https URL of a push service.');
  }
  const row = await pushRepository.upsertSubscription(ctx.db, {
    user_id: userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    user_agent: userAgent?.slice(0, 500) ?? null,
  });
  return { message: PUSH_SUBSCRIBED, data: webDevice(row) };
}

/** `DELETE /api/user/push-subscriptions` {endpoint}: forgets the caller's subscription. @throws NotFoundError (404) when the caller has none with that endpoint. */
export async function unsubscribe(ctx: AppContext, userId: number, endpoint: string) {
  if (!(await pushRepository.deleteSubscription(ctx.db, userId, endpoint))) throw new NotFoundError('Push subscription');
  return { message: PUSH_UNSUBSCRIBED };
}

/** `GET /api/user/push-subscriptions`: the caller's browsers and iOS devices. */
export async function listDevices(ctx: AppContext, userId: number): Promise<{ data: PushDevice[] }> {
  const [web, apns] = await Promise.all([pushRepository.subscriptionsOf(ctx.db, [userId]), pushRepository.apnsTokensOf(ctx.db, [userId])]);
  return { data: [...web.map(webDevice), ...apns.map(apnsDevice)] };
}

/** `POST /api/apns-voip-device-tokens` {token, device_name?}: stores the device's VoIP token for the caller. */
export async function saveApnsToken(ctx: AppContext, userId: number, token: string, deviceName: string | undefined) {
  const row = await pushRepository.upsertApnsToken(ctx.db, { user_id: userId, token, device_name: deviceName || null });
  return { message: APNS_TOKEN_SAVED, data: apnsDevice(row) };
}

/** `DELETE /api/apns-voip-device-tokens/{token}`. @throws NotFoundError (404) when the caller has no such token. */
export async function deleteApnsToken(ctx: AppContext, userId: number, token: string) {
  if (!(await pushRepository.deleteApnsToken(ctx.db, userId, token))) throw new NotFoundError('VoIP device token');
  return { message: APNS_TOKEN_DELETED };
}

/** `GET /api/user/push-notifications`: the caller's newest notifications with each device's outcome (the sandbox's record). */
export async function listNotifications(ctx: AppContext, userId: number, limit: number): Promise<{ data: PushNotificationOut[] }> {
  const rows = await pushRepository.recentNotifications(ctx.db, userId, limit);
  const deliveries = await pushRepository.deliveriesOf(
    ctx.db,
    rows.map((r) => Number(r.id)),
  );
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as PushNotificationOut['kind'],
      company_id: r.company_id === null ? null : Number(r.company_id),
      title: r.title,
      body: r.body,
      url: r.url,
      created_at: iso(r.created_at)!,
      deliveries: deliveries
        .filter((d) => Number(d.notification_id) === Number(r.id))
        .map((d) => ({
          channel: d.channel as 'web' | 'apns',
          adapter: d.adapter,
          outcome: d.outcome as 'sent' | 'recorded' | 'gone' | 'failed',
          status_code: d.status_code,
          error: d.error,
          created_at: iso(d.created_at)!,
        })),
    })),
  };
}

type NewNotification = Parameters<typeof pushRepository.insertNotifications>[1][number];

/**
 * Stores the notifications not stored before and enqueues their delivery in the same transaction
 * (calls: no retry, the ring is short; others: 3 retries 30 s apart), keeping each user's newest
 * {@link KEEP_PER_USER}. @returns the new ids.
 */
async function enqueue(ctx: AppContext, rows: NewNotification[]): Promise<number[]> {
  if (rows.length === 0) return [];
  return ctx.db.transaction().execute(async (tx) => {
    const ids = await pushRepository.insertNotifications(tx, rows);
    for (const id of ids) {
      const retryLimit = rows[0]!.kind === 'call' ? 0 : 3;
      await ctx.queue.enqueue(DELIVER_JOB, { notificationId: id }, { singletonKey: `push-${id}`, retryLimit, retryDelay: 30 }, tx);
    }
    if (ids.length > 0) await pushRepository.trimNotifications(tx, [...new Set(rows.map((r) => r.user_id))], KEEP_PER_USER);
    return ids;
  });
}

/** `POST /api/user/push-notifications/test`: pushes "Test notification" to every device of the caller. */
export async function sendTest(ctx: AppContext, userId: number) {
  await enqueue(ctx, [
    {
      user_id: userId,
      company_id: null,
      kind: 'test',
      dedupe_key: `test:${crypto.randomUUID()}`,
      title: 'Switchboard',
      body: 'Notifications are on for this device.',
      url: '/',
      data: {},
      ttl_s: 60 * 60,
    },
  ]);
  return { message: PUSH_TEST_SENT };
}

/** Users among `userIds` who muted `channel` of `numberId` (notifications module's blocks). */
async function mutedUsers(ctx: AppContext, companyId: number, numberId: number, channel: 'sms' | 'call', userIds: readonly number[]): Promise<Set<number>> {
  const muted = new Set<number>();
  for (const userId of userIds) {
    const blocks = await listNotificationBlocks(ctx, userId, companyId);
    if (blocks.data.some((b) => b.number_id === numberId && b.channel_types.includes(channel))) muted.add(userId);
  }
  return muted;
}

/** A contact's name, else the formatted number, for a title. */
async function partyName(ctx: AppContext, companyId: number, e164: string): Promise<string> {
  return (await findContactByNumber(ctx, companyId, e164))?.name || formatPhone(e164);
}

/**
 * `message.received` (after commit): an inbound message stored in a conversation is pushed to the
 * members who would see it (see the module doc). Messages kept out of the inbox push nothing.
 */
export async function pushInboundMessage(ctx: AppContext, e: MessageReceivedEvent): Promise<number[]> {
  if (e.conversationId === null || e.itemId === null) return [];
  const readers = (await listActiveMembers(ctx, e.companyId)).filter((m) => roleCan(m.role, 'inbox.read')).map((m) => m.userId);
  const withDevices = await pushRepository.usersWithDevices(ctx.db, readers, false);
  const candidates: number[] = [];
  for (const userId of readers.filter((u) => withDevices.has(u))) {
    const scope = await numberScope(ctx, userId, e.companyId);
    if (scope.all || scope.ids.has(e.numberId)) candidates.push(userId);
  }
  if (candidates.length === 0) return [];
  const muted = await mutedUsers(ctx, e.companyId, e.numberId, 'sms', candidates);
  const from = await partyName(ctx, e.companyId, e.from);
  const number = await getCompanyNumber(ctx, e.companyId, e.numberId);
  const to = number.label || formatPhone(number.number);
  return enqueue(
    ctx,
    candidates
      .filter((u) => !muted.has(u))
      .map((userId) => ({
        user_id: userId,
        company_id: e.companyId,
        kind: 'message',
        dedupe_key: `message:${e.itemId}`,
        title: `${from} → ${to}`,
        body: clip(e.body) || 'New message',
        url: `/inbox/${e.conversationId}`,
        data: { companyId: e.companyId, conversationId: e.conversationId, itemId: e.itemId, numberId: e.numberId, from: e.from },
        ttl_s: MESSAGE_TTL_S,
      })),
  );
}

/**
 * In-app calling's ring listener (after commit): each rung user who did not mute calls of the
 * number gets "Incoming call" on their browsers and VoIP devices, once per call.
 */
export async function pushIncomingCall(ctx: AppContext, ring: InAppRing): Promise<number[]> {
  const withDevices = await pushRepository.usersWithDevices(ctx.db, ring.userIds, true);
  const candidates = [...new Set(ring.userIds)].filter((u) => withDevices.has(u));
  if (candidates.length === 0) return [];
  const numberId = await numberIdOf(ctx, ring);
  const muted = numberId === null ? new Set<number>() : await mutedUsers(ctx, ring.companyId, numberId, 'call', candidates);
  const from = ring.contactName || formatPhone(ring.from);
  const to = ring.numberLabel || formatPhone(ring.to);
  return enqueue(
    ctx,
    candidates
      .filter((u) => !muted.has(u))
      .map((userId) => ({
        user_id: userId,
        company_id: ring.companyId,
        kind: 'call',
        dedupe_key: `call:${ring.callId}`,
        title: `Incoming call from ${from}`,
        body: `To ${to}`,
        url: `/calls/${ring.callId}`,
        data: { companyId: ring.companyId, callId: ring.callId, from: ring.from, to: ring.to, timeoutS: ring.timeoutS },
        ttl_s: Math.max(ring.timeoutS, 1),
      })),
  );
}

/** The id of the number a ring came in on (by its E.164 within the company), or null. */
async function numberIdOf(ctx: AppContext, ring: InAppRing): Promise<number | null> {
  const n = await findNumberByE164(ctx, ring.to);
  return n && Number(n.company_id) === ring.companyId ? Number(n.id) : null;
}

function messageOf(n: PushNotificationRow): PushMessage {
  return {
    kind: n.kind,
    title: n.title,
    body: n.body,
    url: n.url,
    tag: n.dedupe_key,
    ttlS: n.ttl_s,
    urgency: n.kind === 'call' ? 'high' : 'normal',
    data: { ...n.data, notificationId: Number(n.id) },
  };
}

/**
 * The `push.deliver` job: sends notification `notificationId` to every device of its user (VoIP
 * devices for calls only) that has no final outcome yet, records each outcome, deletes devices that
 * are gone. A call whose ring time passed is not sent. Throws (so the queue retries) when a
 * message failed on some device and retries remain; delivered devices are skipped on the retry.
 */
export async function deliverNotification(ctx: AppContext, notificationId: number, job?: Parameters<typeof isLastAttempt>[0]): Promise<void> {
  const n = await pushRepository.findNotification(ctx.db, notificationId);
  if (!n) return;
  if (Date.now() - new Date(n.created_at).getTime() > n.ttl_s * 1000) return;
  const port = await pushPortOf(ctx);
  const done = new Set(
    (await pushRepository.deliveriesOf(ctx.db, [notificationId])).filter((d) => d.outcome !== 'failed').map((d) => `${d.channel}:${d.target}`),
  );
  const message = messageOf(n);
  let failed = 0;
  const record = async (channel: 'web' | 'apns', target: string, adapter: string, r: PushOutcome) => {
    await pushRepository.recordDelivery(ctx.db, {
      notification_id: notificationId,
      channel,
      target,
      adapter,
      outcome: r.outcome,
      status_code: r.statusCode,
      error: r.error,
    });
    if (r.outcome === 'failed') failed++;
  };
  for (const s of await pushRepository.subscriptionsOf(ctx.db, [n.user_id])) {
    if (done.has(`web:${s.endpoint}`)) continue;
    const r = await port.web.send({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, message);
    await record('web', s.endpoint, port.web.name, r);
    if (r.outcome === 'gone') await pushRepository.deleteSubscriptionById(ctx.db, Number(s.id));
    else await pushRepository.markSubscription(ctx.db, Number(s.id), r.outcome !== 'failed');
  }
  if (n.kind === 'call' && port.apns) {
    for (const t of await pushRepository.apnsTokensOf(ctx.db, [n.user_id])) {
      if (done.has(`apns:${t.token}`)) continue;
      const r = await port.apns.send(t.token, message);
      await record('apns', t.token, port.apns.name, r);
      if (r.outcome === 'gone') await pushRepository.deleteApnsTokenById(ctx.db, Number(t.id));
      else await pushRepository.markApnsToken(ctx.db, Number(t.id), r.outcome !== 'failed');
    }
  }
  if (failed > 0 && n.kind !== 'call' && job !== undefined && !isLastAttempt(job)) {
    throw new Error(`push: ${failed} device(s) failed for notification ${notificationId}; retrying`);
  }
}

/**
 * `message.received` for a round's messages together: first, per company, whether any inbox reader has a device (one
 * lookup for the round: most companies have none, and their messages need nothing more); then each message of the
 * others is pushed ({@link pushInboundMessage}).
 */
async function onMessagesReceived(ctx: AppContext, items: ReadonlyArray<{ payload: MessageReceivedEvent }>): Promise<void> {
  const list = items.map((i) => i.payload).filter((e) => e.conversationId !== null && e.itemId !== null);
  const readersOf = new Map<number, number[]>();
  for (const companyId of new Set(list.map((e) => e.companyId))) {
    readersOf.set(
      companyId,
      (await listActiveMembers(ctx, companyId)).filter((m) => roleCan(m.role, 'inbox.read')).map((m) => m.userId),
    );
  }
  const withDevices = await pushRepository.usersWithDevices(ctx.db, [...new Set([...readersOf.values()].flat())], false);
  for (const e of list) if (readersOf.get(e.companyId)!.some((u) => withDevices.has(u))) await pushInboundMessage(ctx, e);
}

async function onRing(ctx: AppContext, ring: InAppRing): Promise<void> {
  await pushIncomingCall(ctx, ring);
}

/** Subscribes the push module to inbound messages and in-app rings (idempotent: same functions). */
export function registerPushReactions(ctx: AppContext): void {
  events.consumeBatch('push.inbound-messages', 'message.received', onMessagesReceived);
  ctx.hooks.provide('inAppRing', onRing);
}
