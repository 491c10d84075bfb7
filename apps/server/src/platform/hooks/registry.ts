/**
 * Every hook of the server in one place (docs/architecture.md "Hooks"; issue 21 item 3): the questions a lower
 * module asks a higher one at run time (often inside its transaction), which it cannot import. Like the domain
 * events' registry (`platform/events/registry.ts`), each entry names the hook, the module that asks (its owner),
 * the module(s) that provide it, how many providers it takes and what the asker does without one; its TypeScript
 * signature is the matching entry of {@link HookSignatures}.
 *
 * Kinds:
 * - `one`: a single provider (the last `provide` wins); `ctx.hooks.get(name)`, or `ctx.hooks.ask(name, …args)`
 *   which calls the provider or the entry's `fallback` (no fallback: it throws, a wiring error).
 * - `many`: every provider, in the order they were provided (the same function twice counts once);
 *   `ctx.hooks.all(name)`. The asker combines their answers.
 * - `keyed`: one provider per key (a subject type, an entity type, a probe name; the last wins per key);
 *   `ctx.hooks.of(name, key)`, `ctx.hooks.all(name)`.
 *
 * Providers call `ctx.hooks.provide(name, impl)` (or `provide(name, impl, key)`) in their module's `setup`
 * (`<module>.module.ts`). The registry lives on the context (`ctx.hooks`, built in `bootstrap.ts` with the
 * context), so several servers in one process never share a provider, and no module keeps a hook in a
 * module-level variable (lint: `switchboard/no-module-state`).
 *
 * Signatures use only platform, contracts and domain types (platform/ imports no module); the modules re-export
 * the types they own (e.g. messaging's `InboundReplyHook = HookFn<'inboundReply'>`).
 */
import type { ConversationItem, EavAttributeValueOut } from '@switchboard/contracts';
import type { RouteEntry, Schedule } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../db/db.js';
import type { Row } from '../db/schema.js';

/** What messaging's inbound-reply hook is told about an inbound message. `from` is E.164 when it parses as a phone number. */
export type InboundReplyInput = { companyId: number; numberId: number; from: string; body: string };
/** An inbound-reply answer: keep the message out of the inbox (`skipInbox`), and the campaign it answers (or null). */
export type InboundReplyVerdict = { skipInbox: boolean; campaignId: number | null };
/** A ring of in-app users for a call (in-app calling tells its ring listeners after commit). */
export type InAppRing = {
  callId: number;
  companyId: number;
  from: string;
  to: string;
  numberLabel: string;
  contactName: string | null;
  userIds: number[];
  timeoutS: number;
  /** The token a rung user declines with (in-app calling's `rejectCall`). */
  joinToken?: string;
};
/** A voicemail's transcript as lists show it: `loading` until the job settles, then `complete` (text) or `failed`. */
export type VoicemailTranscriptState = { state: 'loading' | 'complete' | 'failed'; text: string };
/** What a recording listener is told: a call recording (`recordingId`) or a voicemail (`voicemailId`) was stored. */
export type RecordingStored = {
  companyId: number;
  callId: number;
  numberId: number;
  recordingId: number | null;
  voicemailId: number | null;
  /** The call's direction: which channel is the agent's (outbound: channel 0). */
  direction: 'inbound' | 'outbound';
};
/** Fields of the numbers view that other modules fill (numbers' `NumberViewSignals`). */
export type NumberViewSignals = {
  unread_messages_count?: number;
  hasNotificationBlocks?: boolean;
  port?: { id: number; state: string } | null;
  /** The number's SMS verification status (modules/sms-verification provides the source; docs/sms-verification.md). */
  sms_verification?: string;
};

/** The TypeScript signature of each hook (the provider's function; the asker calls it with these arguments). */
export type HookSignatures = {
  /** Inside the inbound webhook's transaction (every read and write through `tx`): is this a reply to a campaign, must it skip the inbox? */
  inboundReply: (ctx: AppContext, tx: DbOrTx, input: InboundReplyInput) => Promise<InboundReplyVerdict>;
  /** After a ring commits: tell browsers and phones (push). */
  inAppRing: (ctx: AppContext, ring: InAppRing) => void | Promise<void>;
  /** Inside the answering transaction: mark the call answered in the app; returns what to announce after commit. */
  inAppAnswer: (ctx: AppContext, tx: DbOrTx, answer: { callId: number; userId: number; identity: string }) => Promise<(() => Promise<void>) | undefined>;
  /** A note's subject for a user about to attach a note (key: the model type, e.g. `call`). @throws NotFoundError. */
  noteSubject: (ctx: AppContext, userId: number, modelId: number) => Promise<{ companyId: number; onSaved?: () => void }>;
  /** @throws ValidationError (422) when `numberId` is not a number of the company. */
  numberOfCompany: (ctx: AppContext, companyId: number, numberId: number) => Promise<void>;
  /** The zone of the company's saved schedule, or undefined. */
  companyZone: (ctx: AppContext, companyId: number, db: DbOrTx) => Promise<string | undefined>;
  /** A company's custom-field values (entity Company). */
  companyCustomFields: (ctx: AppContext, companyId: number) => Promise<EavAttributeValueOut[]>;
  /** Whether the company has numbers or activity in the providing module (key: the probe's name). */
  companyUsageProbe: (ctx: AppContext, companyId: number, db: DbOrTx) => Promise<boolean>;
  /** Which of these number ids belong to the company. */
  companyNumbers: (ctx: AppContext, companyId: number, numberIds: readonly number[], db: DbOrTx) => Promise<number[]>;
  /** Which of `ids` are the company's own entities of the key's type (`contact`, `number`). */
  tagTargets: (ctx: AppContext, companyId: number, ids: number[]) => Promise<Set<number>>;
  /** Calls per tag id in the company. */
  tagCallUsage: (ctx: AppContext, companyId: number) => Promise<Map<number, number>>;
  /** The plan's number limit of a company, or undefined when it has no live plan. */
  numberLimit: (ctx: AppContext, companyId: number) => Promise<number | undefined>;
  /** Routing for a number whose own routes reach no one (a tracking pool's target), or undefined. */
  emptyRoutingFallback: (
    ctx: AppContext,
    number: { id: number; company_id: number },
    db: DbOrTx,
  ) => Promise<{ routes: RouteEntry[]; schedule: Schedule } | undefined>;
  /** Fields of the numbers view a higher module owns, per number id of one company. */
  numberView: (ctx: AppContext, userId: number | null, companyId: number, numberIds: number[]) => Promise<Map<number, NumberViewSignals>>;
  /** The inbox's voicemail transcripts of a page (absent ids have none). */
  voicemailText: (ctx: AppContext, companyId: number, voicemailIds: number[]) => Promise<Map<number, VoicemailTranscriptState>>;
  /** The voicemail list's transcripts of a page (absent ids have none). */
  voicemailTranscript: (ctx: AppContext, companyId: number, voicemailIds: number[]) => Promise<Map<number, VoicemailTranscriptState>>;
  /** PATCH /calls/{id} `recalculateAiAttributes` (spec 001 §7). */
  aiAttributesRecalculator: (ctx: AppContext, call: { id: number; company_id: number; number_id: number }) => Promise<void>;
  /** Inside the storing transaction: a recording or voicemail was stored; returns whether it will be transcribed. */
  recordingListener: (ctx: AppContext, tx: DbOrTx, stored: RecordingStored) => Promise<boolean>;
  /** What the call detail adds for `include` (e.g. `transcription`). */
  callDetailExtension: (ctx: AppContext, call: { id: number; company_id: number }, include: readonly string[]) => Promise<Record<string, unknown>>;
  /** Inside the transaction that settles a transcript (the voicemail alert mails the text). */
  transcriptSettled: (ctx: AppContext, tx: DbOrTx, row: Row<'transcripts'>, state: 'complete' | 'failed', text: string) => Promise<void>;
  /** The company of an audited entity named only by id (key: the route segment, e.g. `webhook-endpoints`), or null. */
  auditCompanyOf: (entityId: string) => Promise<number | null>;
  /** Display names of audit actors (user ids). */
  auditActorNames: (ids: readonly number[]) => Promise<Map<number, string>>;
  /** The business unit (organization) of a company, or null: the request guard's check of API keys limited to a unit. */
  companyOrganizationOf: (companyId: number) => Promise<number | null>;
};

/** A hook's name. */
export type HookName = keyof HookSignatures;
/** The provider function of hook `K`. */
export type HookFn<K extends HookName> = HookSignatures[K];

/** One hook's declaration: who asks, who provides, how many providers, and what the asker does without one. */
export type HookDeclaration<K extends HookName = HookName> = {
  kind: 'one' | 'many' | 'keyed';
  /** The module that asks (the hook's owner, the lower module). */
  askedBy: string;
  /** The module(s) that provide it (higher modules, in their setup). */
  providedBy: readonly string[];
  /** What the asker does when no provider is there (documentation; docs/architecture.md "Hooks"). */
  whenNone: string;
  /** For `one` hooks: what `ctx.hooks.ask` answers without a provider (absent: `ask` throws). */
  fallback?: HookFn<K>;
};

/** The declarations (name → owner, providers, kind, default). Keep docs/architecture.md "Hooks" in step. */
export const HOOKS = {
  inboundReply: {
    kind: 'many',
    askedBy: 'messaging',
    providedBy: ['campaigns'],
    whenNone: '{skipInbox: false, campaignId: null}; any provider saying skip wins, the first campaign named',
  },
  inAppRing: { kind: 'many', askedBy: 'in-app-calling', providedBy: ['push', 'caddy'], whenNone: 'nobody is told (a failing listener is logged)' },
  inAppAnswer: { kind: 'one', askedBy: 'in-app-calling', providedBy: ['calls'], whenNone: 'throws (wiring error)' },
  noteSubject: { kind: 'keyed', askedBy: 'notes', providedBy: ['calls'], whenNone: 'throws (wiring error)' },
  numberOfCompany: { kind: 'one', askedBy: 'blocklist', providedBy: ['numbers'], whenNone: 'throws (wiring error)' },
  companyZone: { kind: 'one', askedBy: 'companies', providedBy: ['schedules'], whenNone: 'the settings zone, else UTC', fallback: async () => undefined },
  companyCustomFields: { kind: 'one', askedBy: 'companies', providedBy: ['custom-fields'], whenNone: 'no values ([])', fallback: async () => [] },
  companyUsageProbe: {
    kind: 'keyed',
    askedBy: 'companies',
    providedBy: ['numbers', 'calls', 'conversations'],
    whenNone: 'in use (an account deletion is refused)',
  },
  companyNumbers: { kind: 'one', askedBy: 'users', providedBy: ['numbers'], whenNone: 'every id accepted (a foreign id is inert)' },
  tagTargets: { kind: 'keyed', askedBy: 'tags', providedBy: ['data-groups'], whenNone: 'throws (wiring error)' },
  tagCallUsage: { kind: 'one', askedBy: 'tags', providedBy: ['calls'], whenNone: 'calls usage null' },
  numberLimit: {
    kind: 'one',
    askedBy: 'numbers',
    providedBy: ['billing'],
    whenNone: 'no plan limit (stored limit or default)',
    fallback: async () => undefined,
  },
  emptyRoutingFallback: { kind: 'one', askedBy: 'numbers', providedBy: ['tracking'], whenNone: 'the stored routing', fallback: async () => undefined },
  numberView: { kind: 'many', askedBy: 'numbers', providedBy: ['notifications', 'ports', 'sms-verification'], whenNone: 'fields absent' },
  voicemailText: { kind: 'many', askedBy: 'conversations', providedBy: ['transcription'], whenNone: 'transcript null' },
  voicemailTranscript: { kind: 'one', askedBy: 'calls', providedBy: ['transcription'], whenNone: 'transcript null', fallback: async () => new Map() },
  aiAttributesRecalculator: { kind: 'one', askedBy: 'calls', providedBy: ['call-intelligence'], whenNone: 'not recalculated', fallback: async () => {} },
  recordingListener: { kind: 'one', askedBy: 'calls', providedBy: ['transcription'], whenNone: 'not transcribed (false)', fallback: async () => false },
  callDetailExtension: { kind: 'many', askedBy: 'calls', providedBy: ['transcription'], whenNone: 'the recording only' },
  transcriptSettled: { kind: 'many', askedBy: 'transcription', providedBy: ['transcription (calls’ voicemail alert)'], whenNone: 'nothing' },
  auditCompanyOf: { kind: 'keyed', askedBy: 'audit', providedBy: ['webhooks'], whenNone: 'company null', fallback: async () => null },
  companyOrganizationOf: { kind: 'one', askedBy: 'platform (auth guard)', providedBy: ['api-keys'], whenNone: 'no business-unit check' },
  auditActorNames: { kind: 'one', askedBy: 'audit', providedBy: ['api-keys'], whenNone: 'no names', fallback: async () => new Map() },
} satisfies { readonly [K in HookName]: HookDeclaration<K> };
