import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, FINAL_DELIVERY_STATES, advanceDelivery, deliveryRank, isDeliveryState } from './delivery-state.js';

const facts = (state: string | null, carrierSid: string | null = null, errorCode: number | null = null) => ({ state, carrierSid, errorCode });

describe('deliveryRank', () => {
  it('orders sending < queued < sent < the final states, none lowest', () => {
    expect(deliveryRank(null)).toBe(-1);
    expect(deliveryRank('sending')).toBeLessThan(deliveryRank('queued'));
    expect(deliveryRank('queued')).toBeLessThan(deliveryRank('sent'));
    for (const s of FINAL_DELIVERY_STATES) expect(deliveryRank(s)).toBeGreaterThan(deliveryRank('sent'));
    expect(deliveryRank('delivered')).toBe(deliveryRank('failed'));
  });
  it('ranks an unknown word like sending', () => {
    expect(deliveryRank('accepted')).toBe(0);
    expect(isDeliveryState('accepted')).toBe(false);
    for (const s of DELIVERY_STATES) expect(isDeliveryState(s)).toBe(true);
  });
});

describe('advanceDelivery', () => {
  it('moves the state forward and records the SID once', () => {
    expect(advanceDelivery(facts('sending'), { state: 'queued', carrierSid: 'SM1' })).toEqual({ state: 'queued', carrierSid: 'SM1' });
    expect(advanceDelivery(facts('queued', 'SM1'), { state: 'sent', carrierSid: 'SM2' })).toEqual({ state: 'sent' });
  });
  it('never moves backwards: a late sent after delivered changes nothing', () => {
    expect(advanceDelivery(facts('delivered', 'SM1'), { state: 'sent', carrierSid: 'SM1' })).toBeNull();
    expect(advanceDelivery(facts('delivered', 'SM1'), { state: 'failed', carrierSid: 'SM1', errorCode: 30003 })).toBeNull();
    expect(advanceDelivery(facts('sent', 'SM1'), { state: 'sent' })).toBeNull();
  });
  it('stores the error code with a forward move', () => {
    expect(advanceDelivery(facts('sent', 'SM1'), { state: 'undelivered', errorCode: 30005 })).toEqual({ state: 'undelivered', errorCode: 30005 });
    expect(advanceDelivery(facts('sent', 'SM1'), { state: 'delivered', errorCode: null })).toEqual({ state: 'delivered', errorCode: null });
    expect(advanceDelivery(facts('sent', 'SM1'), { state: 'delivered' })).toEqual({ state: 'delivered' });
  });
  it('fills a missing error code of a failed message, never replaces one', () => {
    expect(advanceDelivery(facts('failed', 'SM1'), { state: 'failed', errorCode: 30007 })).toEqual({ errorCode: 30007 });
    expect(advanceDelivery(facts('failed', 'SM1', 30001), { state: 'failed', errorCode: 30007 })).toBeNull();
    expect(advanceDelivery(facts('delivered', 'SM1'), { errorCode: 30007 })).toBeNull();
  });
  it('an empty update changes nothing', () => {
    expect(advanceDelivery(facts('sending'), {})).toBeNull();
  });
});
