/**
 * In-app calling calls (spec 002 §7 "In-app calling"), all under
 * /api/companies/:companyId/in-app-calling (`:companyId` = the selected company).
 */
import type { CanAnswerBody, InAppCallingStatus, InAppTokenBody, InAppUser } from '@switchboard/contracts';
import { http } from '../../../lib/http';

/** Calls of a ringing call use the company the call belongs to (not necessarily the selected one). */
const base = '/api/companies/:companyId/in-app-calling';
const of = (companyId: number) => `/api/companies/${companyId}/in-app-calling`;

/** POST .../status {status} → the user with the new status (SIP credentials provisioned on going active). */
export function setStatus(status: InAppCallingStatus) {
  return http.post<{ message: string; data: InAppUser }>(`${base}/status`, { status }, { silent: true });
}
/** POST .../token → softphone access token (Twilio Voice grant or sandbox token). */
export function getToken() {
  return http.post<InAppTokenBody>(`${base}/token`, {}, { silent: true });
}
/** GET .../users of company `companyId` → its users with their in-app status (`can_take_calls`: rings in the app now). */
export function listUsers(companyId: number) {
  return http.get<{ data: InAppUser[] }>(`${of(companyId)}/users`);
}
/** GET .../calls/{id}/can-answer-call */
export function canAnswer(companyId: number, callId: number) {
  return http.get<CanAnswerBody>(`${of(companyId)}/calls/${callId}/can-answer-call`);
}
/** POST .../calls/{id}/answer: first answer wins; 409 when someone else was faster. */
export function answer(companyId: number, callId: number) {
  return http.post<{ message: string }>(`${of(companyId)}/calls/${callId}/answer`, {}, { silent: true });
}
/** POST .../calls/{id}/reject {joinToken} */
export function reject(companyId: number, callId: number, joinToken: string) {
  return http.post<{ message: string }>(`${of(companyId)}/calls/${callId}/reject`, { joinToken }, { silent: true });
}
/** POST .../calls/{id}/hangup */
export function hangup(companyId: number, callId: number) {
  return http.post<{ message: string }>(`${of(companyId)}/calls/${callId}/hangup`, {}, { silent: true });
}
