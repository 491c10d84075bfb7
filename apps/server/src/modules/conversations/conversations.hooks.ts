/**
 * The voicemail-text hook: the inbox shows a voicemail's transcript in its thread item (spec 001
 * "transcription"; issue "Calls, complete": "their text shows in the inbox"). Transcripts belong to
 * modules/transcription, a higher module the conversations module cannot import, so the dependency
 * is inverted: transcription provides the `voicemailText` hook (`ctx.hooks`, platform/hooks/registry.ts) in its module setup, and the item pages
 * (`GET .../conversations/{cid}/items`, `GET /inbox/conversations/items`) ask it once per page.
 */
import type { ConversationItem } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { HookFn, VoicemailTranscriptState } from '../../platform/hooks/registry.js';

/** A voicemail's transcript as the thread shows it: `loading` until the job settles, then `complete` (text) or `failed`. */
export type VoicemailText = VoicemailTranscriptState;
/** Reads the transcripts of these voicemails of `companyId` (one statement per page); absent ids have none. The `voicemailText` hook. */
export type VoicemailTextSource = HookFn<'voicemailText'>;

/**
 * Adds `details.transcript` to the voicemail items of a page (null when the voicemail has no
 * transcript or no source is registered); other items are returned unchanged. One call per source.
 */
export async function withVoicemailTexts(ctx: AppContext, companyId: number, items: ConversationItem[]): Promise<ConversationItem[]> {
  const ids = items.flatMap((i) => (i.details.type === 'voicemail' && i.details.voicemailId !== null ? [i.details.voicemailId] : []));
  if (ids.length === 0) return items;
  const texts = new Map<number, VoicemailText>();
  for (const source of ctx.hooks.all('voicemailText')) for (const [id, t] of await source(ctx, companyId, ids)) if (!texts.has(id)) texts.set(id, t);
  return items.map((i) =>
    i.details.type === 'voicemail' && i.details.voicemailId !== null
      ? { ...i, details: { ...i.details, transcript: texts.get(i.details.voicemailId) ?? null } }
      : i,
  );
}
