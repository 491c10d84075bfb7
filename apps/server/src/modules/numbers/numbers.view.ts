/**
 * The API shape of a number (spec 002 §3 "Number"; docs/numbers.md "Spec fields of a number"): the
 * stored setup plus the spec's fields, the same in the list, the datatable, GET /numbers/list/{id or
 * number} and every answer that carries a number.
 *
 * - Route `_id` is `"{numberId}.{extension}"`, forward `_id` `"{numberId}.{extension}.{position}"`
 *   (derived, stable while the setup is unchanged; the routes are stored as one JSON list).
 * - `triggers` (this module's table) and `eavAttributeValues` (custom-fields service, entity Number)
 *   are read for all the numbers of an answer at once.
 * - `unread_messages_count`, `hasNotificationBlocks` and `port` belong to other modules (the inbox,
 *   the caller's notification blocks, port-in requests): they come from sources those modules
 *   provide at start as the `numberView` hook (notifications, ports, sms-verification; platform/hooks/registry.ts), so this module
 *   imports none of them (no cycle). Without a source they are 0, false and null.
 * - `tags` (no number tags exist yet) answer []; `sms_verification.status` comes from the SMS verification
 *   module's source (verified, pending), "unverified" without one; `sms_enabled`, `record`, `call_transcription_enabled`, `ai_eav_enabled`
 *   are the number's stored flags (migration 0016).
 */
import {
  EAV_ENTITY_TYPES,
  NUMBER_TYPES,
  SERVICE_TYPES,
  displayRouteType,
  formatPhone,
  scheduleLabel,
  type RouteEntry,
  type Schedule,
} from '@switchboard/domain';
import { scheduleView, type MenuFallback, type NumberDto } from '@switchboard/contracts';
import type { AppContext } from '../../context.js';
import type { HookFn, NumberViewSignals } from '../../platform/hooks/registry.js';
import { getEavValuesMany } from '../custom-fields/custom-fields.service.js';
import { numbersAdminRepository, type NumberRow, type TriggerRow } from './numbers.repository.js';

/** SMS verification status of a number on no approved or pending campaign (or without the SMS verification source). */
export const SMS_VERIFICATION_UNVERIFIED = 'unverified';

/**
 * A number's type label (spec 002 §3 "Number type labels", read by meaning: docs/domain-decisions.md
 * "Number type labels"): a fax number (service type 2) is "Fax number", a toll-free one
 * "Toll-Free Voice & SMS", a local or Canadian one "Local Voice & SMS".
 */
export function numberTypeLabel(type: number, serviceType: number = SERVICE_TYPES.voice_sms): string {
  if (serviceType === SERVICE_TYPES.fax) return 'Fax number';
  return type === NUMBER_TYPES.toll_free ? 'Toll-Free Voice & SMS' : 'Local Voice & SMS';
}

/** What other modules add to a number's view, per number id. */
export type { NumberViewSignals };

/**
 * A source of {@link NumberViewSignals}: for the numbers `numberIds` of company `companyId`, seen by
 * user `userId` (null in background work: nothing personal then).
 */
export type NumberViewSource = HookFn<'numberView'>;

/** The async parts of a number's view. */
export type NumberViewExtras = {
  triggers?: TriggerRow[];
  eavAttributeValues?: NumberDto['eavAttributeValues'];
  signals?: NumberViewSignals;
};

/** A trigger row in the API shape (ISO timestamps). */
export function toTriggerDto(t: TriggerRow): NumberDto['triggers'][number] {
  return {
    id: t.id,
    number_id: t.number_id,
    event: t.event as 'call.missed',
    action: t.action as 'email',
    target: t.target,
    created_at: t.created_at.toISOString(),
  };
}

/** The API shape of a number from its row and, when loaded, its extras (absent extras answer their empty value). */
export function toNumberDto(row: NumberRow, extras: NumberViewExtras = {}): NumberDto {
  const stored = row.routes as RouteEntry[];
  const schedule = row.schedule as Schedule;
  const routes = stored.map((r) => ({
    ...r,
    _id: `${row.id}.${r.extension}`,
    schedule: scheduleView(r.schedule),
    forwards: r.forwards.map((f, i) => ({ ...f, _id: `${row.id}.${r.extension}.${i}` })),
  }));
  return {
    id: row.id,
    company_id: row.company_id,
    number: row.number,
    national_number: formatPhone(row.number),
    label: row.label,
    type: row.type,
    type_label: numberTypeLabel(row.type, row.service_type),
    category: row.category,
    provider_id: row.provider_id,
    routes,
    schedule: scheduleView(schedule),
    route_type: stored[0] ? displayRouteType(stored[0]) : 'Standard',
    schedule_label: scheduleLabel(schedule, stored[0]?.type === 'voicemail'),
    menu_replays: row.menu_replays,
    menu_fallback: row.menu_fallback as MenuFallback,
    created_at: row.created_at.toISOString(),
    forwards: routes.flatMap((r) => r.forwards.map((f) => ({ _id: f._id, number: f.number }))),
    tags: [],
    port: extras.signals?.port ?? null,
    triggers: (extras.triggers ?? []).map(toTriggerDto),
    eavAttributeValues: extras.eavAttributeValues ?? [],
    unread_messages_count: extras.signals?.unread_messages_count ?? 0,
    hasNotificationBlocks: extras.signals?.hasNotificationBlocks ?? false,
    call_transcription_enabled: row.call_transcription_enabled,
    sms_enabled: row.sms_enabled,
    sms_verification: { status: extras.signals?.sms_verification ?? SMS_VERIFICATION_UNVERIFIED },
    record: row.record,
    ai_eav_enabled: row.ai_eav_enabled,
  };
}

/**
 * The extras of `rows` (any companies), loaded together: triggers in one statement, custom-field
 * values in one, and each registered source once per company.
 */
export async function loadNumberExtras(ctx: AppContext, userId: number | null, rows: NumberRow[]): Promise<Map<number, NumberViewExtras>> {
  const out = new Map<number, NumberViewExtras>(rows.map((r) => [r.id, {}]));
  if (rows.length === 0) return out;
  const ids = rows.map((r) => r.id);
  const byCompany = new Map<number, number[]>();
  for (const r of rows) byCompany.set(r.company_id, [...(byCompany.get(r.company_id) ?? []), r.id]);
  const [triggers, eav, signals] = await Promise.all([
    numbersAdminRepository.listTriggersOfNumbers(ctx.db, ids),
    getEavValuesMany(ctx, EAV_ENTITY_TYPES.Number, ids),
    Promise.all(ctx.hooks.all('numberView').flatMap((source) => [...byCompany].map(([companyId, list]) => source(ctx, userId, companyId, list)))),
  ]);
  for (const t of triggers) {
    const e = out.get(t.number_id);
    if (e) (e.triggers ??= []).push(t);
  }
  for (const [id, values] of eav) {
    const e = out.get(id);
    if (e) e.eavAttributeValues = values;
  }
  for (const map of signals) {
    for (const [id, s] of map) {
      const e = out.get(id);
      if (e) e.signals = { ...e.signals, ...s };
    }
  }
  return out;
}

/** The API shapes of `rows`, in order, with every spec field loaded ({@link loadNumberExtras}). */
export async function numberViews(ctx: AppContext, userId: number | null, rows: NumberRow[]): Promise<NumberDto[]> {
  const extras = await loadNumberExtras(ctx, userId, rows);
  return rows.map((r) => toNumberDto(r, extras.get(r.id)));
}

/** {@link numberViews} of one row. */
export async function numberView(ctx: AppContext, userId: number | null, row: NumberRow): Promise<NumberDto> {
  return (await numberViews(ctx, userId, [row]))[0]!;
}
