/** The live-event registry: channel names, kinds and payload schemas (foundation §7 "Live channels"). */
import { describe, expect, it } from 'vitest';
import { LIVE_CHANNEL_PATTERN, LIVE_EVENTS, liveChannel, liveChannelKind } from './live-events.js';

describe('live-event registry', () => {
  it('names channels {kind}.{id} and reads the kind back; anything else is no channel', () => {
    expect(liveChannel('bulk-purchase', 7)).toBe('bulk-purchase.7');
    expect(liveChannelKind('conversations.12')).toBe('conversations');
    expect(liveChannelKind('user.3')).toBe('user');
    for (const bad of ['company.', 'company.x', 'billing.1', '#user:1', 'company.1.2', 'bulk_purchase.1']) expect(LIVE_CHANNEL_PATTERN.test(bad)).toBe(false);
  });

  it('validates payloads with the schema of their channel and event', () => {
    expect(LIVE_EVENTS.company['call updated'].safeParse({ id: 4, status: 3 }).success).toBe(true);
    expect(LIVE_EVENTS.company['call updated'].safeParse({ id: 'x' }).success).toBe(false);
    expect(LIVE_EVENTS.user['in-app calling'].safeParse({ type: 'status', status: 'away' }).success).toBe(true);
    expect(LIVE_EVENTS['bulk-purchase']['bulk purchase progress'].safeParse({ batchId: 'b', progress: 50 }).success).toBe(true);
  });
});
