/**
 * Switchboard's push service worker (docs/push.md "Browser"): shows the notifications the server
 * pushes (Web Push, payload `{kind, title, body, url, tag, data}`) and opens the app at `url` when
 * one is clicked. Registered by features/push with scope `/`. Plain script: served as is from
 * apps/web/public.
 */
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let message = { kind: 'message', title: 'Switchboard', body: '', url: '/', tag: undefined, data: {} };
  if (event.data) {
    try {
      message = { ...message, ...event.data.json() };
    } catch (err) {
      message.body = event.data.text();
      console.warn('push-sw: payload is not JSON', err);
    }
  }
  const ringing = message.kind === 'call';
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      renotify: Boolean(message.tag),
      requireInteraction: ringing,
      data: { url: message.url || '/', kind: message.kind, ...(message.data || {}) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin) {
          await client.focus();
          if ('navigate' in client) await client.navigate(target);
          return;
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});
