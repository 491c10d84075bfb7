/** The live dispatcher: handlers run for the channel AND event they subscribed to (packages/contracts LIVE_EVENTS). */
import { describe, expect, it, vi } from 'vitest';
import { dispatch, subscribe } from './realtime';

describe('live event dispatch', () => {
  it('runs a handler only for its own channel and event', () => {
    const mine = vi.fn();
    const otherEvent = vi.fn();
    const offMine = subscribe('company.1', 'call updated', mine);
    const offOther = subscribe('company.1', 'port updated', otherEvent);
    dispatch('company.2', 'call updated', { id: 5, status: 3 });
    dispatch('conversations.1', 'call updated', { id: 6 });
    expect(mine).not.toHaveBeenCalled();
    dispatch('company.1', 'call updated', { id: 7, status: 3 });
    expect(mine).toHaveBeenCalledExactlyOnceWith({ id: 7, status: 3 });
    expect(otherEvent).not.toHaveBeenCalled();
    offMine();
    offOther();
    dispatch('company.1', 'call updated', { id: 8 });
    expect(mine).toHaveBeenCalledTimes(1);
  });

  it('ignores an event that names no channel', () => {
    const handler = vi.fn();
    const off = subscribe('user.3', 'in-app calling', handler);
    dispatch(undefined, 'in-app calling', { type: 'status', status: 'away' });
    expect(handler).not.toHaveBeenCalled();
    off();
  });
});
