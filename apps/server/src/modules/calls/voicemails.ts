/**
 * Voicemails (spec 001 §7 "Voicemails"; docs/telephony.md "Voicemail"): storing a recorded
 * voicemail (from the call flow's recording webhook), copying the recording from the carrier into
 * the blob store (job `calls.fetch-recording`), the alert e-mail, and the voicemail API (list,
 * mark read/unread, delete).
 */
import { CALL_STATUS } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { EMAIL_URL_TTL_MS, ownerOfKey } from '../../platform/blob/access.js';
import type { DbOrTx } from '../../platform/db/db.js';
import type { HookFn } from '../../platform/hooks/registry.js';
import { NotFoundError, deniedAsNotFound } from '../../platform/http/errors.js';
import { pageMeta } from '../../platform/http/page.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { findRoutingById, getCompanyNumbers } from '../numbers/numbers.service.js';
import { numberScope, scopeIncludes, scopeNumberIds } from '../users/members.service.js';
import { publishCallUpdated } from './call-changes.js';
import { knownParties, knownParty } from './call-records.js';
import { announceRecording } from './recordings.js';
import { callsRepository, type CallRow, type VoicemailRow } from './calls.repository.js';

/** A voicemail's transcript as the voicemail list shows it: its state and text (docs/transcription.md "Voicemails"). */
export type VoicemailTranscriptText = { state: 'loading' | 'complete' | 'failed'; text: string };
/** Reads the transcripts of a page of voicemails by id (a voicemail without one is absent); the `voicemailTranscript` hook, provided by transcription. */
export type VoicemailTranscriptSource = HookFn<'voicemailTranscript'>;

/** The job that copies a voicemail's recording into the blob store (`fetchRecording`). */
export const FETCH_RECORDING_JOB = 'calls.fetch-recording';

/**
 * Inside the recording webhook's transaction: stores the call's voicemail (one per call; a repeat
 * returns the stored one) with the carrier's recording URL, queues the copy into our blob store
 * (`FETCH_RECORDING_JOB`) and mails the route entry's alert address (entry `ext`, else the call's).
 */
export async function storeVoicemail(
  ctx: AppContext,
  tx: DbOrTx,
  call: CallRow,
  recording: { url: string; sid: string | null; durationS: number },
  ext?: number,
): Promise<VoicemailRow> {
  const vm = await callsRepository.insertVoicemail(tx, {
    company_id: call.company_id,
    call_id: call.id,
    number_id: call.number_id,
    recording_url: recording.url,
    recording_sid: recording.sid,
    duration_s: recording.durationS,
  });
  await ctx.queue.enqueue(FETCH_RECORDING_JOB, { voicemailId: vm.id }, { singletonKey: `vm:${vm.id}` }, tx);
  // A transcribed voicemail is mailed once its transcript settles, with the text (sendVoicemailAlertWithText).
  const transcribed = await announceRecording(ctx, tx, {
    companyId: call.company_id,
    callId: call.id,
    numberId: call.number_id,
    recordingId: null,
    voicemailId: vm.id,
    direction: 'inbound',
  });
  if (!transcribed) await sendVoicemailAlert(ctx, tx, call, vm.id, recording.durationS, ext);
  return vm;
}

/**
 * E-mails the entry's `email_alert_address` (when set) about a new voicemail, through the mailer
 * in the webhook's transaction, with links to the call in the app and to the recording.
 */
async function sendVoicemailAlert(
  ctx: AppContext,
  tx: DbOrTx,
  call: CallRow,
  voicemailId: number,
  durationS: number,
  ext?: number,
  transcript?: string,
): Promise<void> {
  const number = await findRoutingById(ctx, call.number_id, tx);
  const entry = number?.routes.find((e) => e.extension === (ext ?? call.extension)) ?? number?.routes[0];
  const to = entry?.email_alert_address.trim();
  if (!number || !entry || !to) return;
  const link = `${ctx.config.publicUrl}/calls/${call.id}`; // the web app's call detail route
  // A signed link (docs/operations.md "Files"): the mail's reader may not be signed in.
  const audio = ctx.blobs.signedUrl(recordingKey(ctx, call.company_id, voicemailId), EMAIL_URL_TTL_MS);
  const label = entry.label.trim() || `extension ${entry.extension}`;
  await ctx.mailer.send(
    {
      to,
      subject: `New voicemail from ${call.from_number}`,
      text: `${call.from_number} left a ${durationS} s voicemail on ${number.number} (${label}).\n\n${transcript !== undefined ? `Transcript: ${transcript || '(no speech recognised)'}\n\n` : ''}Listen in the app: ${link}\nRecording: ${audio}\n`,
      html: `<p>${call.from_number} left a ${durationS} s voicemail on ${number.number} (${escapeHtml(label)}).</p>${transcript !== undefined ? `<blockquote>${escapeHtml(transcript || '(no speech recognised)')}</blockquote>` : ''}<p><a href="${link}">Listen in the app</a></p>`,
    },
    tx,
  );
}

/**
 * The voicemail alert of a transcribed voicemail, sent when its transcript settles (inside that
 * transaction; docs/transcription.md "Voicemails"): with the transcript's text, or without it when
 * transcription failed (`text` undefined).
 */
export async function sendVoicemailAlertWithText(ctx: AppContext, tx: DbOrTx, voicemailId: number, text: string | undefined): Promise<void> {
  const vm = await callsRepository.findVoicemail(tx, voicemailId);
  const call = vm ? await callsRepository.find(tx, vm.call_id) : undefined;
  if (!vm || !call) return;
  await sendVoicemailAlert(ctx, tx, call, vm.id, vm.duration_s, call.extension ?? undefined, text);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Blob key of a voicemail's recording: recomputable from its id, unguessable without the server secret. */
function recordingKey(ctx: AppContext, companyId: number, voicemailId: number): string {
  return ctx.blobs.derivedKey(companyId, 'recordings', String(voicemailId), '.wav');
}

/**
 * Job `calls.fetch-recording`: copies a voicemail's recording from the carrier into the blob store
 * (`recordingKey`) and points `recording_url` at it. Idempotent: a URL already ours is kept.
 */
export async function fetchRecording(ctx: AppContext, voicemailId: number): Promise<void> {
  const vm = await callsRepository.findVoicemail(ctx.db, voicemailId);
  if (!vm) return;
  const current = ctx.blobs.keyOf(vm.recording_url);
  if (current && ownerOfKey(current) === vm.company_id) return;
  const key = recordingKey(ctx, vm.company_id, vm.id);
  const ours = ctx.blobs.url(key);
  const { data } = await ctx.carrier.fetchRecording(vm.recording_url);
  await ctx.blobs.put(key, data);
  await callsRepository.setVoicemailUrl(ctx.db, vm.id, ours);
  publishCallUpdated(ctx, { companyId: vm.company_id, id: vm.call_id, status: CALL_STATUS.VOICEMAIL });
}

type VoicemailWithCall = NonNullable<Awaited<ReturnType<typeof callsRepository.voicemailWithCall>>>;

function voicemailDto(v: VoicemailWithCall, numberLabel: string, contact: { id: number; name: string } | null = null) {
  return {
    id: v.id,
    call_id: v.call_id,
    number_id: v.number_id,
    from: v.from_number,
    to: v.to_number,
    recording_url: v.recording_url,
    duration_s: v.duration_s,
    is_read: v.is_read,
    created_at: v.created_at.toISOString(),
    contact,
    number_label: numberLabel,
  };
}

/** Labels of the company's numbers among `ids` (one statement for a page); also of a released number. */
async function numberLabels(ctx: AppContext, companyId: number, ids: number[]): Promise<Map<number, string>> {
  return new Map((await getCompanyNumbers(ctx, companyId, ids, { includeReleased: true })).map((n) => [n.id, n.label]));
}

async function voicemailForUser(ctx: AppContext, userId: number, id: number): Promise<VoicemailWithCall> {
  const v = await callsRepository.voicemailWithCall(ctx.db, id);
  if (!v) throw new NotFoundError('Voicemail');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, v.company_id, AGENT_ROLES), 'Voicemail');
  if (!scopeIncludes(await numberScope(ctx, userId, v.company_id), v.number_id)) throw new NotFoundError('Voicemail');
  return v;
}

/**
 * GET /api/voicemails?company_id&page&per_page: newest first, with paging meta; a `user` sees the
 * voicemails of the numbers assigned to them (docs/permissions.md "Numbers a user sees").
 * @throws ForbiddenError 403
 */
export async function listVoicemails(ctx: AppContext, userId: number, companyId: number, page: number, perPage: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  const numberIds = scopeNumberIds(await numberScope(ctx, userId, companyId));
  const { rows, total } = await callsRepository.listVoicemails(ctx.db, companyId, perPage, (page - 1) * perPage, numberIds);
  const [contacts, labels] = await Promise.all([
    knownParties(
      ctx,
      companyId,
      rows.map((r) => ({ contactId: r.contact_id, party: r.from_number })),
    ),
    numberLabels(
      ctx,
      companyId,
      rows.map((r) => r.number_id),
    ),
  ]);
  // Each voicemail's transcript (state and text), one statement for the page, as the inbox and the e-mail show it.
  const texts: Map<number, VoicemailTranscriptText> = await ctx.hooks.ask(
    'voicemailTranscript',
    ctx,
    companyId,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r, i) => ({ ...voicemailDto(r, labels.get(r.number_id) ?? '', contacts[i]), transcript: texts.get(r.id) ?? null })),
    meta: pageMeta(page, perPage, total),
  };
}

/** PUT /api/voicemails/{id}/read and /unread. @throws NotFoundError 404 */
export async function markVoicemail(ctx: AppContext, userId: number, id: number, isRead: boolean) {
  const v = await voicemailForUser(ctx, userId, id);
  await callsRepository.setVoicemailRead(ctx.db, v.id, isRead);
  publishCallUpdated(ctx, { companyId: v.company_id, id: v.call_id, status: CALL_STATUS.VOICEMAIL });
  const [contact, labels] = await Promise.all([knownParty(ctx, v.company_id, v.contact_id, v.from_number), numberLabels(ctx, v.company_id, [v.number_id])]);
  return {
    message: isRead ? 'Voicemail marked as read' : 'Voicemail marked as unread',
    data: voicemailDto({ ...v, is_read: isRead }, labels.get(v.number_id) ?? '', contact),
  };
}

/** DELETE /api/voicemails/{id}: removes the voicemail and its recording blob (the call stays). @throws NotFoundError 404 */
export async function deleteVoicemail(ctx: AppContext, userId: number, id: number) {
  const v = await voicemailForUser(ctx, userId, id);
  await callsRepository.deleteVoicemail(ctx.db, v.id);
  // The stored URL names the blob (also for recordings kept under an older key).
  const key = ctx.blobs.keyOf(v.recording_url);
  if (key && ownerOfKey(key) === v.company_id) await ctx.blobs.delete(key);
  publishCallUpdated(ctx, { companyId: v.company_id, id: v.call_id, status: CALL_STATUS.VOICEMAIL });
  return { message: 'Voicemail deleted successfully' };
}
