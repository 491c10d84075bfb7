/**
 * Port-in requests (spec 002 §7 "Ports": GET /company/{companyId}/ports, POST .../numbers/port;
 * docs/numbers.md "Port-in requests"). States: submitted → in_progress → completed | rejected (with a reason).
 * Every change publishes `company.{companyId}` 'port updated' {id, state, reason, numbers} after commit.
 *
 * With the sandbox carrier the job `ports.advance` plays the losing carrier: in_progress after
 * SANDBOX_PORT_PROGRESS_MS (default 5000 ms), then completed after SANDBOX_PORT_COMPLETE_MS
 * (default 15000 ms, counted from submission), adding the numbers to the company; a request with a
 * number ending in 9999 is rejected "Account number does not match". With Twilio the request stays
 * submitted for support to carry out (docs/numbers.md).
 */
import { recordJobAudit } from '../audit/audit.service.js';
import { formatPhone, isTollFree, parsePhone } from '@switchboard/domain';
import type { AppContext } from '../../context.js';
import { AppError, ServiceUnavailableError, ValidationError, type FieldErrors } from '../../platform/http/errors.js';
import { MANAGER_ROLES, assertCompanyAccess } from '../companies/companies.service.js';
import { assertWithinNumberLimit, companyTimezone, isNumberActive, purchaseIntoCompany } from '../numbers/numbers.service.js';
import { portsRepository, type PortRow } from './ports.repository.js';

export const PORT_ADVANCE_JOB = 'ports.advance';
export const PORT_REJECTED_REASON = 'Account number does not match';
export const PORT_STATE_LABELS = { submitted: 'Submitted', in_progress: 'In progress', completed: 'Completed', rejected: 'Rejected' } as const;
type PortState = keyof typeof PORT_STATE_LABELS;

/** Sandbox delays in ms, read from the environment at each submission (tests shorten them). */
export function sandboxPortDelays(env: NodeJS.ProcessEnv = process.env): { progressMs: number; completeMs: number } {
  const num = (v: string | undefined, d: number) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : d);
  const progressMs = num(env.SANDBOX_PORT_PROGRESS_MS, 5000);
  return { progressMs, completeMs: Math.max(progressMs, num(env.SANDBOX_PORT_COMPLETE_MS, 15000)) };
}

/** A port-in request in the API shape (state label, ISO timestamps; the bill copy only as `has_bill_copy`). */
export function toPortDto(p: PortRow) {
  return {
    id: p.id,
    company_id: p.company_id,
    numbers: p.numbers as string[],
    carrier_name: p.carrier_name,
    account_number: p.account_number,
    authorized_name: p.authorized_name,
    service_address: p.service_address,
    has_bill_copy: Boolean(p.bill_copy),
    state: p.state as PortState,
    state_label: PORT_STATE_LABELS[p.state as PortState],
    reason: p.reason,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    completed_at: p.completed_at?.toISOString() ?? null,
  };
}

function publish(ctx: AppContext, p: PortRow): void {
  ctx.realtime.send(`company.${p.company_id}`, 'port updated', { id: p.id, state: p.state as PortState, reason: p.reason, numbers: p.numbers });
}

/** The company's port-in requests (any member). @throws ForbiddenError (403). */
export async function listPorts(ctx: AppContext, userId: number, companyId: number) {
  await assertCompanyAccess(ctx, userId, companyId);
  return (await portsRepository.list(ctx.db, companyId)).map(toPortDto);
}

export type PortInput = {
  numbers: string[];
  carrier_name: string;
  account_number: string;
  pin: string;
  authorized_name: string;
  service_address: string;
  bill_copy?: string | null;
};

/**
 * Creates a port-in request (owner/administrator) in state submitted.
 * @throws ValidationError 422 `numbers.{i}` (not a phone number, listed twice, already in service
 *   here), `numbers` (number limit); ForbiddenError 403.
 */
export async function createPort(ctx: AppContext, userId: number, companyId: number, input: PortInput) {
  await assertCompanyAccess(ctx, userId, companyId, MANAGER_ROLES);
  const errors: FieldErrors = {};
  const numbers: string[] = [];
  for (const [i, n] of input.numbers.entries()) {
    const e164 = parsePhone(n);
    if (!e164) errors[`numbers.${i}`] = ['The number is not a valid phone number.'];
    else if (numbers.includes(e164)) errors[`numbers.${i}`] = ['The number is listed twice.'];
    else if (await isNumberActive(ctx, e164)) errors[`numbers.${i}`] = [`${formatPhone(e164)} is already in service here.`];
    else numbers.push(e164);
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await assertWithinNumberLimit(ctx, companyId, numbers.length, 'numbers');
  const delays = sandboxPortDelays();
  const row = await ctx.db.transaction().execute(async (tx) => {
    const p = await portsRepository.insert(tx, {
      company_id: companyId,
      user_id: userId,
      numbers: JSON.stringify(numbers),
      carrier_name: input.carrier_name.trim(),
      account_number: input.account_number.trim(),
      pin: input.pin.trim(),
      authorized_name: input.authorized_name.trim(),
      service_address: input.service_address.trim(),
      bill_copy: input.bill_copy || null,
    });
    if (ctx.carrier.capabilities.simulator) {
      const now = Date.now();
      await ctx.queue.enqueue(
        PORT_ADVANCE_JOB,
        { portId: p.id, step: 'in_progress' },
        { startAfter: new Date(now + delays.progressMs), singletonKey: `port-${p.id}-progress` },
        tx,
      );
      await ctx.queue.enqueue(
        PORT_ADVANCE_JOB,
        { portId: p.id, step: 'finish' },
        { startAfter: new Date(now + delays.completeMs), singletonKey: `port-${p.id}-finish` },
        tx,
      );
    }
    return p;
  });
  publish(ctx, row);
  return toPortDto(row);
}

/**
 * Job handler (sandbox): `in_progress` moves a submitted request on; `finish` completes it (adding
 * each number to the company through the carrier; numbers already added are skipped) or rejects it.
 * Idempotent: a request already past the step is left alone.
 */
export async function advancePort(
  ctx: AppContext,
  data: { portId: number; step: 'in_progress' | 'finish' },
  opts: { lastAttempt?: boolean } = {},
): Promise<void> {
  const p = await portsRepository.find(ctx.db, data.portId);
  if (!p || p.state === 'completed' || p.state === 'rejected') return;
  if (p.state === 'submitted') {
    const moved = await portsRepository.transition(ctx.db, p.id, ['submitted'], { state: 'in_progress' });
    if (moved) {
      publish(ctx, moved);
      await auditPortStep(ctx, moved);
    }
  }
  if (data.step !== 'finish') return;
  const numbers = p.numbers as string[];
  let reason: string | null = null;
  if (numbers.some((n) => n.endsWith('9999'))) reason = PORT_REJECTED_REASON;
  if (!reason) {
    const tz = p.user_id ? await companyTimezone(ctx, p.user_id, p.company_id) : 'UTC';
    for (const n of numbers) {
      if (await isNumberActive(ctx, n)) continue; // added by an earlier run (numbers active elsewhere were refused at submission)
      try {
        await purchaseIntoCompany(ctx, p.company_id, tz, n, isTollFree(n) ? 2 : 1);
      } catch (e) {
        // A domain refusal (number taken, limit, carrier said no) rejects the request with its
        // reason; anything else fails the job, which the queue retries — on the last attempt the
        // request is rejected with "Please try again later" (the cause is logged), so it still ends.
        const refusal = e instanceof AppError && !(e instanceof ServiceUnavailableError);
        if (!refusal) {
          if (!opts.lastAttempt) throw e;
          ctx.log.error({ err: e, portId: p.id }, 'port-in failed on the last attempt');
        }
        const why = !refusal ? 'Please try again later' : e instanceof ValidationError ? Object.values(e.errors ?? {}).flat()[0] : e.message;
        reason = `${formatPhone(n)} could not be ported: ${why}`;
        break;
      }
    }
  }
  const done = reason
    ? await portsRepository.transition(ctx.db, p.id, ['submitted', 'in_progress'], { state: 'rejected', reason })
    : await portsRepository.transition(ctx.db, p.id, ['submitted', 'in_progress'], { state: 'completed', completed_at: new Date() });
  if (done) {
    publish(ctx, done);
    await auditPortStep(ctx, done);
  }
}

/** The port job's state change in the audit log, under the job, started by the requester (docs/audit.md "Jobs"). */
async function auditPortStep(
  ctx: AppContext,
  p: { id: number; company_id: number; user_id: number | null; state: string; reason: string | null; numbers: unknown },
): Promise<void> {
  await recordJobAudit(ctx, {
    job: PORT_ADVANCE_JOB,
    companyId: p.company_id,
    action: p.state,
    entityType: 'ports',
    entityId: p.id,
    startedBy: p.user_id,
    changes: { state: p.state, reason: p.reason, numbers: p.numbers },
    outcome: p.state === 'rejected' ? 'failed' : 'success',
    once: true,
  });
}
