/**
 * The activity feed (spec 001 §3 "Activity item kinds", §7 "GET /activity"): calls, voicemails
 * and messages of a company, newest first, page-numbered.
 *
 * Sources: `listCallActivity` (calls module: calls and voicemails) and the inbox's message
 * items. Merge strategy: for page p of size n each source returns its newest p·n entries; they
 * are merged by time and the slice [(p-1)·n, p·n) is answered. That is exact (every entry of the
 * page is among the newest p·n of its own source) and costs O(p·n) rows, fine for the shallow pages
 * people read. `total` is the sum of the sources' totals. Faxes and notes do not exist yet.
 */
import type { ActivityItem, ActivityQuery } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { pageMeta, type PageMeta } from '../../platform/http/page.js';
import { knownParties, listCallActivity } from '../calls/calls.service.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { listMessageActivity } from '../conversations/conversations.service.js';
import { getCompanyNumbers } from '../numbers/numbers.service.js';

type Sortable = { at: Date; item: ActivityItem };

/**
 * `GET /activity`. `tz` is accepted for the client's display and not used: times are ISO UTC.
 * @throws ForbiddenError (403) without access to the company.
 */
export async function listActivity(ctx: AppContext, userId: number, q: ActivityQuery): Promise<{ data: ActivityItem[]; meta: PageMeta }> {
  const companyId = q.company;
  await assertCompanyAccess(ctx, userId, companyId);
  const window = q.page * q.per_page;
  const f = q.filter;

  const [calls, messages] = await Promise.all([
    f.calls || f.voicemails
      ? listCallActivity(ctx, companyId, { limit: window, offset: 0, calls: f.calls, voicemails: f.voicemails })
      : Promise.resolve({ items: [], total: 0 }),
    f.messages ? listMessageActivity(ctx, companyId, window) : Promise.resolve({ rows: [], total: 0 }),
  ]);

  // Known callers by name: the contact a call or conversation was matched to, else the contact
  // with that number now (created later); one statement each for ids and numbers.
  const contacts = await knownParties(ctx, companyId, [
    ...calls.items.map((c) => ({ contactId: c.contact_id, party: c.direction === 'outbound' ? c.to : c.from })),
    ...messages.rows.map((m) => ({ contactId: m.contact_id, party: m.recipient })),
  ]);
  const callContact = (i: number) => contacts[i] ?? null;
  const messageContact = (i: number) => contacts[calls.items.length + i] ?? null;
  const numbers = new Map(
    (
      await getCompanyNumbers(
        ctx,
        companyId,
        messages.rows.map((m) => m.number_id),
      )
    ).map((n) => [n.id, n]),
  );

  const merged: Sortable[] = [];
  for (const [i, c] of calls.items.entries()) {
    const isVoicemail = c.kind === 'voicemail';
    merged.push({
      at: new Date(c.created_at),
      item: {
        id: `${c.kind}-${isVoicemail ? (c.voicemail?.id ?? c.id) : c.id}`,
        kind: c.kind,
        created_at: new Date(c.created_at).toISOString(),
        number: { id: c.number_id, number: c.number, label: c.number_label },
        call_id: c.id,
        from: c.from,
        to: c.to,
        direction: c.direction === 'outbound' ? 'outbound' : 'inbound',
        status_label: c.status_label ?? null,
        duration_s: isVoicemail ? (c.voicemail?.duration_s ?? c.duration_s) : c.duration_s,
        recording_url: c.voicemail?.recording_url ?? null,
        ...(isVoicemail && c.voicemail ? { is_read: c.voicemail.is_read } : {}),
        contact: callContact(i),
      },
    });
  }
  for (const [i, m] of messages.rows.entries()) {
    const business = numbers.get(m.number_id)?.number ?? '';
    merged.push({
      at: m.created_at,
      item: {
        id: `message-${m.id}`,
        kind: 'message',
        created_at: m.created_at.toISOString(),
        number: { id: m.number_id, number: business, label: numbers.get(m.number_id)?.label ?? '' },
        from: m.is_inbound ? m.recipient : business,
        to: m.is_inbound ? business : m.recipient,
        direction: m.is_inbound ? 'inbound' : 'outbound',
        content: m.body,
        delivery_state: m.delivery_state,
        error_code: m.error_code,
        media: m.media ?? [],
        is_read: m.is_read,
        contact: messageContact(i),
        conversation_id: m.conversation_id,
      },
    });
  }
  merged.sort((a, b) => b.at.getTime() - a.at.getTime() || b.item.id.localeCompare(a.item.id));
  const total = calls.total + messages.total;
  return {
    data: merged.slice((q.page - 1) * q.per_page, q.page * q.per_page).map((s) => s.item),
    meta: pageMeta(q.page, q.per_page, total),
  };
}
