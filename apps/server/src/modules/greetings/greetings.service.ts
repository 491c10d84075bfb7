/**
 * Greetings (spec 002 §3 "Greeting", §7 "Greetings"; docs/telephony.md): audio a company plays to callers, made from text
 * with the speech synthesizer (`speech.ts`, WAV) or uploaded (WAV/MP3). Audio lives in the blob
 * store under `greetings/{companyId}/{id}-{stamp}.{ext}` and is served at `/files/...`, which is
 * where both the browser and the carrier's `<Play>` fetch it.
 *
 * Greetings play in the call flow through assignments per (number, extension, kind):
 * kind `menu` (extension 0: the number's menu prompt), `voicemail` (the entry's voicemail
 * greeting) and `whisper` (played to the answering forward before the confirm key). An entry's
 * `onhold_music_id` names a greeting played while the call is put through.
 */
import type { GreetingDto } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import { CARRIER_URL_TTL_MS } from '../../platform/blob/access.js';
import type { DbOrTx } from '../../platform/db/db.js';
import { readCache } from '../../platform/db/read-cache.js';
import type { UploadedFile } from '../../platform/http/multipart.js';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { NotFoundError, RateLimitedError, ValidationError, fieldError, deniedAsNotFound } from '../../platform/http/errors.js';
import { AGENT_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { numberForManager } from '../schedules/schedules.service.js';
import { greetingsRepository, type GreetingRow } from './greetings.repository.js';
import { DEFAULT_VOICE, VOICES, isKnownVoice, synthesize } from './speech.js';

export const GREETING_SAVED = 'Greeting saved successfully';
export const GREETING_DELETED = 'Greeting deleted successfully';

/** An uploaded greeting audio file (the shared multipart reader's file). */
export type UploadedAudio = UploadedFile;

const AUDIO_TYPES: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3' };

function dto(ctx: AppContext, g: GreetingRow): GreetingDto {
  return {
    id: g.id,
    company_id: g.company_id,
    name: g.name,
    content: g.content,
    voice: g.voice,
    source: g.source as 'tts' | 'upload',
    url: ctx.blobs.url(g.audio_key),
    created_at: g.created_at.toISOString(),
    updated_at: g.updated_at.toISOString(),
  };
}

async function greetingForUser(ctx: AppContext, userId: number, id: number, roles = AGENT_ROLES.concat('billing', 'reporting')): Promise<GreetingRow> {
  const g = await greetingsRepository.find(ctx.db, id);
  if (!g) throw new NotFoundError('Greeting');
  await deniedAsNotFound(assertCompanyAccess(ctx, userId, g.company_id, roles), 'Greeting');
  return g;
}

/** GET /api/greetings?company_id: the company's greetings, newest first. @throws 403 */
export async function listGreetings(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  return { data: (await greetingsRepository.list(ctx.db, companyId)).map((g) => dto(ctx, g)) };
}

/** GET /api/greetings/{id}. @throws NotFoundError (also for another company's greeting). */
export async function getGreeting(ctx: AppContext, userId: number, id: number) {
  return { data: dto(ctx, await greetingForUser(ctx, userId, id)) };
}

/** GET /api/greetings/voices: the synthesizer's voices. */
export function listVoices() {
  return { data: VOICES.map((v) => ({ id: v.id, name: v.name, language: v.language })) };
}

/** Speech previews per user: {@link SPEAK_LIMIT} per minute on each node (each costs a synthesis). */
export const SPEAK_LIMIT = 20;
const speakLimiter = new RateLimiterMemory({ keyPrefix: 'greetings-speak', points: SPEAK_LIMIT, duration: 60 });

/**
 * POST /api/greetings/speak: synthesized WAV of `content` (preview), off the event loop (speech.ts).
 * @throws ValidationError (422) unknown voice; RateLimitedError (429, Retry-After) past SPEAK_LIMIT a
 * minute for the user; ServiceUnavailableError (503) when the synthesis queue is full.
 */
export async function speak(userId: number, input: { content: string; voice?: string }): Promise<Buffer> {
  if (input.voice && !isKnownVoice(input.voice)) throw fieldError('voice', 'The selected voice is invalid.');
  try {
    await speakLimiter.consume(String(userId));
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new RateLimitedError(e.msBeforeNext / 1000, 'Too many speech previews. Please try again in a moment.');
    throw e;
  }
  return synthesize(input.content, input.voice || DEFAULT_VOICE);
}

/**
 * POST /api/greetings (multipart): creates a greeting from `content` + `voice` (synthesized) or
 * from an uploaded audio `file`; with `_method=PUT` and `id` updates that greeting (new audio when
 * content, voice or a file changed). Agents and managers may save.
 * @throws ValidationError (name, content/file, voice, file type), NotFoundError, ForbiddenError.
 */
export async function saveGreeting(
  ctx: AppContext,
  userId: number,
  fields: { company_id: number; name?: string; content?: string; voice?: string; _method?: string; id?: number },
  file?: UploadedAudio,
) {
  const updating = (fields._method ?? '').toUpperCase() === 'PUT';
  if (updating && !fields.id) throw fieldError('id', 'The id field is required.');
  const existing = updating ? await greetingForUser(ctx, userId, fields.id!, AGENT_ROLES) : undefined;
  if (existing && existing.company_id !== fields.company_id) throw new NotFoundError('Greeting');
  await assertCompanyAccess(ctx, userId, fields.company_id, AGENT_ROLES);
  const errors: Record<string, string[]> = {};
  const name = fields.name?.trim() ?? existing?.name ?? '';
  if (!name) errors.name = ['The name field is required.'];
  const content = (fields.content ?? existing?.content ?? '').trim();
  const voice = fields.voice || existing?.voice || DEFAULT_VOICE;
  if (!isKnownVoice(voice)) errors.voice = ['The selected voice is invalid.'];
  const ext = file ? (AUDIO_TYPES[file.mimetype] ?? /\.(wav|mp3)$/i.exec(file.filename)?.[1]?.toLowerCase()) : undefined;
  if (file && !ext) errors.file = ['The file must be a WAV or MP3 audio file.'];
  if (!file && !content && !existing) errors.content = ['Enter the text to speak or upload an audio file.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  // New audio for a file, a new greeting, or changed text/voice (an upload becomes speech only when new text is sent).
  const changed = existing !== undefined && content !== '' && (content !== existing.content || voice !== existing.voice);
  const regenerate = Boolean(file) || !existing || (changed && (existing.source === 'tts' || fields.content !== undefined));
  let audio: { key: string; type: string; source: 'tts' | 'upload' } | undefined;
  if (regenerate) {
    const data = file ? file.data : await synthesize(content, voice);
    const type = file ? (ext === 'mp3' ? 'audio/mpeg' : 'audio/wav') : 'audio/wav';
    const key = ctx.blobs.newKey(fields.company_id, 'greetings', `.${file ? ext : 'wav'}`);
    await ctx.blobs.put(key, data);
    audio = { key, type, source: file ? 'upload' : 'tts' };
  }
  let row: GreetingRow;
  if (existing) {
    row = await greetingsRepository.update(ctx.db, existing.id, {
      name,
      content,
      voice,
      ...(audio ? { audio_key: audio.key, content_type: audio.type, source: audio.source } : {}),
    });
    if (audio) await ctx.blobs.delete(existing.audio_key);
  } else {
    row = await greetingsRepository.insert(ctx.db, {
      company_id: fields.company_id,
      name,
      content,
      voice,
      source: audio!.source,
      audio_key: audio!.key,
      content_type: audio!.type,
    });
  }
  flowCache(ctx).invalidate();
  return { message: GREETING_SAVED, data: dto(ctx, row) };
}

/** DELETE /api/greetings/{id}: removes the greeting, its assignments and its audio. */
export async function deleteGreeting(ctx: AppContext, userId: number, id: number) {
  const g = await greetingForUser(ctx, userId, id, AGENT_ROLES);
  await greetingsRepository.delete(ctx.db, g.id);
  flowCache(ctx).invalidate();
  await ctx.blobs.delete(g.audio_key);
  return { message: GREETING_DELETED };
}

type Assignment = { extension: number; kind: 'menu' | 'voicemail' | 'whisper'; greeting_id: number };

/** GET /api/numbers/{id}/greetings (owner/administrator). */
export async function getNumberGreetings(ctx: AppContext, userId: number, numberId: number) {
  await numberForManager(ctx, userId, numberId);
  return {
    data: (await greetingsRepository.assignments(ctx.db, numberId)).map((a) => ({
      extension: a.extension,
      kind: a.kind as Assignment['kind'],
      greeting_id: a.greeting_id,
    })),
  };
}

/**
 * PUT /api/numbers/{id}/greetings: replaces the number's assignments. Every greeting must belong
 * to the number's company (`assignments.{i}.greeting_id`); one greeting per (extension, kind).
 */
export async function putNumberGreetings(ctx: AppContext, userId: number, numberId: number, assignments: Assignment[]) {
  const number = await numberForManager(ctx, userId, numberId);
  const found = new Set((await greetingsRepository.findMany(ctx.db, number.company_id, [...new Set(assignments.map((a) => a.greeting_id))])).map((g) => g.id));
  const errors: Record<string, string[]> = {};
  const seen = new Set<string>();
  assignments.forEach((a, i) => {
    if (!found.has(a.greeting_id)) errors[`assignments.${i}.greeting_id`] = ['The selected greeting is invalid.'];
    const k = `${a.extension}:${a.kind}`;
    if (seen.has(k)) errors[`assignments.${i}.kind`] = ['Only one greeting per extension and kind.'];
    seen.add(k);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await ctx.db.transaction().execute((tx) => greetingsRepository.replaceAssignments(tx, numberId, assignments));
  flowCache(ctx).invalidate();
  return getNumberGreetings(ctx, userId, numberId);
}

/**
 * For the call flow: audio URLs of the number's assigned greetings by `${extension}:${kind}`,
 * and of the company greetings named in `holdIds` (entries' onhold_music_id) by id. The URLs are
 * signed for the carrier (`<Play>`), valid CARRIER_URL_TTL_MS.
 */
export async function flowGreetings(ctx: AppContext, number: { id: number; company_id: number }, holdIds: number[], db: DbOrTx = ctx.db) {
  const byKey: Record<string, string> = {};
  for (const a of await greetingsRepository.assignmentsWithAudio(db, number.id))
    byKey[`${a.extension}:${a.kind}`] = ctx.blobs.signedUrl(a.audio_key, CARRIER_URL_TTL_MS);
  const byId: Record<number, string> = {};
  for (const g of await greetingsRepository.findMany(db, number.company_id, [...new Set(holdIds)]))
    byId[g.id] = ctx.blobs.signedUrl(g.audio_key, CARRIER_URL_TTL_MS);
  return { byKey, byId };
}

type FlowGreetings = Awaited<ReturnType<typeof flowGreetings>>;
type CompanyGreetings = { byNumber: Map<number, Record<string, string>>; byId: Map<number, string> };
const flowCache = (ctx: AppContext) => readCache<number, CompanyGreetings>(ctx.db, 'greetings.company');

/**
 * For the voice webhook (docs/architecture.md "The voice webhook's hot path"): the same answer as `flowGreetings`, from a short-lived
 * in-process cache of the company's greeting audio and assignments (platform/db/read-cache.ts;
 * two statements per company on a miss, through `db`, the webhook's transaction). This module
 * invalidates it after every greeting or assignment write. Treat the result as read-only.
 */
export async function flowGreetingsCached(
  ctx: AppContext,
  number: { id: number; company_id: number },
  holdIds: number[],
  db: DbOrTx = ctx.db,
): Promise<FlowGreetings> {
  const company = await flowCache(ctx).get(number.company_id, async () => {
    const byNumber = new Map<number, Record<string, string>>();
    for (const a of await greetingsRepository.companyAssignmentsWithAudio(db, number.company_id)) {
      let m = byNumber.get(a.number_id);
      if (!m) byNumber.set(a.number_id, (m = {}));
      m[`${a.extension}:${a.kind}`] = a.audio_key; // blob keys: signed below, per answer
    }
    const byId = new Map((await greetingsRepository.list(db, number.company_id)).map((g) => [g.id, g.audio_key]));
    return { byNumber, byId };
  });
  const play = (key: string) => ctx.blobs.signedUrl(key, CARRIER_URL_TTL_MS);
  const byId: Record<number, string> = {};
  for (const id of holdIds) {
    const key = company.byId.get(id);
    if (key) byId[id] = play(key);
  }
  const byKey = Object.fromEntries(Object.entries(company.byNumber.get(number.id) ?? {}).map(([k, key]) => [k, play(key)]));
  return { byKey, byId };
}
