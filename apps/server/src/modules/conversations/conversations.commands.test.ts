/**
 * The inbox's commands (conversations.commands.ts) called the way other modules call them: inside
 * a transaction of the caller, with validated input, never with a row patch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { ValidationError } from '../../platform/http/errors.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { recordCallInThread } from './conversations.call-items.js';
import {
  InboxCommandError,
  addNote,
  appendInboundMessage,
  appendOutboundMessage,
  appendOutboundMessages,
  applyDeliveryUpdate,
  attachMessageMedia,
} from './conversations.commands.js';

let s: TestServer;
let a: Account;
let number: { id: number; number: string };

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s);
  number = await buyTestNumber(a, '415');
});
afterAll(async () => {
  await s?.close();
});

/** Runs `fn` in a transaction of its own, as a calling module would. */
const tx = <T>(fn: (t: DbOrTx) => Promise<T>): Promise<T> => s.ctx.db.transaction().execute((t) => fn(t));

describe('appendOutboundMessages (campaign dispatch)', () => {
  it('upserts each thread once and returns items in input order', async () => {
    const out = await tx((t) =>
      appendOutboundMessages(s.ctx, t, {
        companyId: a.companyId,
        numberId: number.id,
        userId: a.userId,
        messages: [
          { recipient: '+14155550101', contactId: null, body: 'one', media: [], carrierSid: 'SMbatch1', state: 'sent', errorCode: null },
          {
            recipient: '+14155550102',
            contactId: null,
            body: 'two',
            media: [{ url: 'https://example.test/a.png', contentType: 'image/png' }],
            carrierSid: 'SMbatch2',
            state: 'failed',
            errorCode: 30003,
          },
          { recipient: '+14155550101', contactId: null, body: 'three', media: [], carrierSid: 'SMbatch3', state: 'delivered', errorCode: null },
        ],
      }),
    );
    expect(out).toHaveLength(3);
    expect(out[0]!.conversationId).toBe(out[2]!.conversationId);
    expect(out[1]!.conversationId).not.toBe(out[0]!.conversationId);
    const rows = await s.ctx.db
      .selectFrom('conversation_items')
      .select(['id', 'body', 'delivery_state', 'error_code', 'carrier_sid', 'is_inbound', 'is_read'])
      .where(
        'id',
        'in',
        out.map((o) => o.itemId),
      )
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.body, r.delivery_state, r.error_code, r.carrier_sid, r.is_inbound, r.is_read])).toEqual([
      ['one', 'sent', null, 'SMbatch1', false, true],
      ['two', 'failed', 30003, 'SMbatch2', false, true],
      ['three', 'delivered', null, 'SMbatch3', false, true],
    ]);
    expect(await tx((t) => appendOutboundMessages(s.ctx, t, { companyId: a.companyId, numberId: number.id, userId: null, messages: [] }))).toEqual([]);
  });

  it('refuses an unknown delivery state or an empty recipient (a programming error, not a 4xx)', async () => {
    const base = { recipient: '+14155550103', contactId: null, body: 'x', media: [], carrierSid: null, state: 'sent', errorCode: null };
    await expect(
      tx((t) => appendOutboundMessages(s.ctx, t, { companyId: a.companyId, numberId: number.id, userId: null, messages: [{ ...base, state: 'bounced' }] })),
    ).rejects.toThrow(InboxCommandError);
    await expect(
      tx((t) => appendOutboundMessages(s.ctx, t, { companyId: a.companyId, numberId: number.id, userId: null, messages: [{ ...base, recipient: ' ' }] })),
    ).rejects.toThrow(InboxCommandError);
  });
});

describe('applyDeliveryUpdate', () => {
  it('moves forward only, by item id or by carrier SID with the item id as fallback', async () => {
    const { item } = await tx((t) =>
      appendOutboundMessage(s.ctx, t, { companyId: a.companyId, numberId: number.id, recipient: '+14155550104', body: 'hi', media: [], userId: a.userId }),
    );
    expect(item.delivery_state).toBe('sending');
    // A callback that overtook the storing of the SID finds the item by our id.
    const first = await tx((t) => applyDeliveryUpdate(s.ctx, t, { carrierSid: 'SMdeliv1', itemId: item.id }, { carrierSid: 'SMdeliv1', state: 'sent' }));
    expect(first.updated).toMatchObject({ carrier_sid: 'SMdeliv1', delivery_state: 'sent' });
    const delivered = await tx((t) => applyDeliveryUpdate(s.ctx, t, { carrierSid: 'SMdeliv1' }, { state: 'delivered' }));
    expect(delivered.updated?.delivery_state).toBe('delivered');
    const late = await tx((t) => applyDeliveryUpdate(s.ctx, t, { itemId: item.id }, { state: 'sent' }));
    expect(late).toEqual({ found: true, updated: null });
    // Another SID never takes over an item that has one.
    expect(await tx((t) => applyDeliveryUpdate(s.ctx, t, { carrierSid: 'SMother', itemId: item.id }, { state: 'failed' }))).toEqual({
      found: false,
      updated: null,
    });
  });
});

describe('inbound, media and notes', () => {
  it('appends an inbound message to the sender thread, then attaches our media copies', async () => {
    const { conversation, item } = await tx((t) =>
      appendInboundMessage(s.ctx, t, {
        companyId: a.companyId,
        numberId: number.id,
        from: '+14155550105',
        body: 'pic',
        media: [{ url: 'https://carrier.test/m/1', contentType: 'image/jpeg' }],
        carrierSid: 'SMin1',
      }),
    );
    expect(conversation).toMatchObject({ number_id: number.id, recipient: '+14155550105', is_archived: false });
    expect(item).toMatchObject({ is_inbound: true, is_read: false, delivery_state: 'received', carrier_sid: 'SMin1' });
    const updated = await attachMessageMedia(s.ctx, item.id, [{ url: '/files/x.jpg', contentType: 'image/jpeg' }]);
    expect(updated?.media).toEqual([{ url: '/files/x.jpg', contentType: 'image/jpeg' }]);
    await expect(attachMessageMedia(s.ctx, item.id, [{ url: 1 } as never])).rejects.toThrow(InboxCommandError);
  });

  it('adds a note; an empty one is a 422 on body', async () => {
    const { conversation } = await tx((t) =>
      appendOutboundMessage(s.ctx, t, { companyId: a.companyId, numberId: number.id, recipient: '+14155550106', body: 'hello', media: [], userId: a.userId }),
    );
    const note = await tx((t) => addNote(s.ctx, t, { companyId: a.companyId, conversationId: conversation.id, userId: a.userId, body: '  call back  ' }));
    expect(note).toMatchObject({ type: 'note', body: 'call back', is_read: true, user_id: a.userId });
    await expect(tx((t) => addNote(s.ctx, t, { companyId: a.companyId, conversationId: conversation.id, userId: a.userId, body: ' ' }))).rejects.toThrow(
      ValidationError,
    );
  });
});

describe('recordCallInThread', () => {
  it('refuses an entry that is no call.changed payload', async () => {
    await expect(recordCallInThread(s.ctx, { callId: 'x' } as never)).rejects.toThrow(InboxCommandError);
  });
});
