/**
 * The live connection (foundation §7 "Live channels"): one Socket.IO connection (path /socket.io,
 * cookies sent) opened after sign-in. `subscribe(channel, event, handler)` joins a private channel
 * by emitting 'subscribe' with its name (the server acks `{ok}`) and listens for one event on it.
 *
 * Channels, events and payload types come from the registry in packages/contracts
 * (`LIVE_EVENTS`): `conversations.{companyId}`, `company.{companyId}`, `campaigns.{companyId}`,
 * `bulk-purchase.{companyId}`, `user.{userId}`. The server emits every event as
 * `(event, payload, channel)`, and handlers run only for the channel AND event they subscribed to.
 * Subscriptions are reference-counted and re-joined after a reconnect.
 */
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import type { LiveChannel, LiveChannelKind, LiveEventName, LivePayload } from '@switchboard/contracts';

type Handler = (payload: unknown) => void;

let socket: Socket | null = null;
/** channel → event → handlers */
const channels = new Map<string, Map<string, Set<Handler>>>();

function join(channel: string): void {
  socket?.emit('subscribe', channel, (ack: { ok?: boolean; message?: string } | undefined) => {
    if (ack && ack.ok === false) console.warn(`Live channel ${channel} refused: ${ack.message ?? ''}`);
  });
}

/**
 * Runs the handlers of `event` on `channel` (the channel the server named as the event's third
 * argument). An event without a channel name reaches no handler.
 */
export function dispatch(channel: unknown, event: string, payload: unknown): void {
  if (typeof channel !== 'string') return;
  channels
    .get(channel)
    ?.get(event)
    ?.forEach((handler) => handler(payload));
}

/** Whether the app wants a connection (between connectRealtime and disconnectRealtime). */
let wanted = false;

/**
 * Opens the connection (idempotent). Call after sign-in. The Socket.IO client is loaded on first
 * use (its own chunk), so pages before sign-in do not download it.
 */
export function connectRealtime(): void {
  if (wanted) return;
  wanted = true;
  void import('socket.io-client').then(({ io }) => {
    if (!wanted || socket) return;
    socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    socket.on('connect', () => {
      for (const channel of channels.keys()) join(channel);
    });
    // The server disconnects a person's sockets when their role or numbers change (or they are signed out): connect
    // again once, so the channels are joined with what the person may see now (a signed-out session is refused).
    socket.on('disconnect', (reason: string) => {
      if (reason === 'io server disconnect' && wanted) setTimeout(() => socket?.connect(), 1000);
    });
    socket.onAny((event: string, payload: unknown, channel: unknown) => dispatch(channel, event, payload));
  });
}

/** Closes the connection (logout). Subscriptions stay registered and re-join on the next connect. */
export function disconnectRealtime(): void {
  wanted = false;
  socket?.disconnect();
  socket = null;
}

/**
 * Listens for `event` on `channel`; only events of the channel's kind are accepted and the
 * handler's payload type is the registry's.
 *
 * @returns a function that removes the handler (and leaves the channel when nothing listens)
 */
export function subscribe<K extends LiveChannelKind, E extends LiveEventName<K>>(
  channel: LiveChannel<K>,
  event: E,
  handler: (payload: LivePayload<K, E>) => void,
): () => void {
  let events = channels.get(channel);
  const isNew = !events;
  if (!events) {
    events = new Map();
    channels.set(channel, events);
  }
  let handlers = events.get(event);
  if (!handlers) {
    handlers = new Set();
    events.set(event, handlers);
  }
  const h = handler as Handler;
  handlers.add(h);
  if (isNew && socket?.connected) join(channel);

  return () => {
    handlers.delete(h);
    if (handlers.size === 0) events.delete(event);
    if (events.size === 0) {
      channels.delete(channel);
      socket?.emit('unsubscribe', channel);
    }
  };
}

/**
 * React hook: subscribes while mounted and while `channel` is not null. The latest `handler` is used
 * without re-subscribing. The payload type is inferred from the registry.
 */
export function useRealtimeEvent<K extends LiveChannelKind, E extends LiveEventName<K>>(
  channel: LiveChannel<K> | null,
  event: E,
  handler: (payload: LivePayload<K, E>) => void,
): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!channel) return;
    return subscribe<K, E>(channel, event, (payload) => latest.current(payload));
  }, [channel, event]);
}
