/**
 * The live connection (foundation §7 "Live channels"): one Socket.IO connection (path /socket.io,
 * cookies sent) opened after sign-in. `subscribe(channel, event, handler)` joins a private channel
 * by emitting 'subscribe' with its name (the server acks `{ok}`) and listens for one event on it.
 * Channels: `conversations.{companyId}`, `company.{companyId}`, `user.{userId}`. Subscriptions are
 * reference-counted and re-joined after a reconnect.
 */
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';

type Handler = (payload: unknown) => void;

let socket: Socket | null = null;
/** channel → event → handlers */
const channels = new Map<string, Map<string, Set<Handler>>>();

function join(channel: string): void {
  socket?.emit('subscribe', channel, (ack: { ok?: boolean; message?: string } | undefined) => {
    if (ack && ack.ok === false) console.warn(`Live channel ${channel} refused: ${ack.message ?? ''}`);
  });
}

function dispatch(event: string, payload: unknown): void {
  for (const events of channels.values()) {
    events.get(event)?.forEach((handler) => handler(payload));
  }
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
    socket.onAny((event: string, payload: unknown) => dispatch(event, payload));
  });
}

/** Closes the connection (logout). Subscriptions stay registered and re-join on the next connect. */
export function disconnectRealtime(): void {
  wanted = false;
  socket?.disconnect();
  socket = null;
}

/**
 * Listens for `event` on `channel`.
 *
 * Events carry no channel name, so a handler receives the event from any joined channel; callers
 * subscribe to channels keyed by the ids they care about (the selected company).
 *
 * @returns a function that removes the handler (and leaves the channel when nothing listens)
 */
export function subscribe(channel: string, event: string, handler: Handler): () => void {
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
  handlers.add(handler);
  if (isNew && socket?.connected) join(channel);

  return () => {
    handlers.delete(handler);
    if (handlers.size === 0) events.delete(event);
    if (events.size === 0) {
      channels.delete(channel);
      socket?.emit('unsubscribe', channel);
    }
  };
}

/**
 * React hook: subscribes while mounted and while `channel` is not null. The latest `handler` is used
 * without re-subscribing.
 */
export function useRealtimeEvent<T>(channel: string | null, event: string, handler: (payload: T) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!channel) return;
    return subscribe(channel, event, (payload) => latest.current(payload as T));
  }, [channel, event]);
}
