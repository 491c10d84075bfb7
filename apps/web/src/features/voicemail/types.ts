/** A voicemail (GET /api/voicemails): the caller, the number called and the recording (packages/contracts). */
import type { VoicemailItem } from '@switchboard/contracts';

export type Voicemail = VoicemailItem;
export type { PageMeta } from '@switchboard/contracts';
