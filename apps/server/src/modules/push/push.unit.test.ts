/** Pure parts of push: which endpoint hosts production refuses (docs/push.md "Validation"), the payload the service worker reads. */
import { describe, expect, it } from 'vitest';
import { webPushPayload } from '../../platform/push/web-push.adapter.js';
import { isPrivateHost } from './push.service.js';

describe('isPrivateHost', () => {
  it('refuses loopback, private, link-local, shared and local names', () => {
    for (const h of [
      'localhost',
      'api.localhost',
      'printer.local',
      'db.internal',
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateHost(h), h).toBe(true);
    }
  });
  it('accepts the push services and public addresses', () => {
    for (const h of [
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      'web.push.apple.com',
      'wns2-par02p.notify.windows.com',
      '172.32.0.1',
      '8.8.8.8',
      '100.128.0.1',
      '2001:4860::8888',
    ]) {
      expect(isPrivateHost(h), h).toBe(false);
    }
  });
});

describe('webPushPayload', () => {
  it('carries what the service worker shows and opens', () => {
    const p = JSON.parse(
      webPushPayload({
        kind: 'call',
        title: 'Incoming call from (312) 555-0177',
        body: 'To Front desk',
        url: '/calls/7',
        tag: 'call:7',
        ttlS: 20,
        urgency: 'high',
        data: { callId: 7 },
      }),
    );
    expect(p).toEqual({ kind: 'call', title: 'Incoming call from (312) 555-0177', body: 'To Front desk', url: '/calls/7', tag: 'call:7', data: { callId: 7 } });
  });
});
