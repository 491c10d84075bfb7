/**
 * Outbound calling calls (docs/calling.md), under /api/companies/:companyId/outbound-calls
 * (`:companyId` = the selected company), the sandbox softphone's connect, and the dialer's contact search.
 */
import type { CallControlBody, CallerIdsBody, ContactList as ContactListSchema, Infer, PlaceOutboundCallBody } from '@switchboard/contracts';

type ContactList = Infer<typeof ContactListSchema>;
import { http } from '../../../lib/http';

const base = '/api/companies/:companyId/outbound-calls';

/** GET .../caller-ids → the numbers the user may call from and the remembered one. */
export function getCallerIds() {
  return http.get<CallerIdsBody>(`${base}/caller-ids`);
}
/** POST .../outbound-calls {caller_id, to} → the token and the stored call. */
export function placeCall(callerId: number, to: string) {
  return http.post<PlaceOutboundCallBody>(base, { caller_id: callerId, to }, { silent: true });
}
/** POST /api/simulator/softphone/connect {token}: the sandbox carrier rings the handset. */
export function connectSandbox(token: string) {
  return http.post<{ sid: string; status: string }>('/api/simulator/softphone/connect', { token }, { silent: true });
}
const of = (companyId: number, callId: number) => `/api/companies/${companyId}/outbound-calls/${callId}`;
export const control = {
  hangup: (c: number, id: number) => http.post<{ message: string }>(`${of(c, id)}/hangup`, {}, { silent: true }),
  hold: (c: number, id: number, hold: boolean) => http.post<CallControlBody>(`${of(c, id)}/hold`, { hold }, { silent: true }),
  mute: (c: number, id: number, muted: boolean) => http.post<CallControlBody>(`${of(c, id)}/mute`, { muted }, { silent: true }),
  dtmf: (c: number, id: number, digits: string) => http.post<CallControlBody>(`${of(c, id)}/dtmf`, { digits }, { silent: true }),
  transfer: (c: number, id: number, target: { number?: string; user_id?: number }) =>
    http.post<CallControlBody>(`${of(c, id)}/transfer`, target, { silent: true }),
};

/** A contact the dialer offers: its name and number (E.164). */
export type DialerContact = { id: number; name: string; number: string };

/**
 * GET /api/contacts?company_id&search&per_page=6 (the contacts list the Contacts page uses): the
 * company's contacts whose name, number or e-mail matches `search`, those with a number only.
 */
export async function searchContacts(companyId: number, search: string): Promise<DialerContact[]> {
  const page = await http.get<ContactList>('/api/contacts', { params: { company_id: companyId, search, per_page: 6, page: 1 } });
  return page.data.filter((c): c is typeof c & { number: string } => Boolean(c.number)).map((c) => ({ id: c.id, name: c.name, number: c.number }));
}
