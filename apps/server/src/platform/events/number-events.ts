/**
 * Domain events of the numbers family (emitted by modules/numbers after commit; others only
 * subscribe, e.g. tracking adds a pool's bought numbers to the pool). Each entry: event name → zod
 * schema of its payload. See `platform/events/index.ts`.
 */
import { z } from 'zod';

const id = z.number().int();

/** The numbers family: event name → payload schema. */
export const NUMBER_EVENTS = {
  /**
   * A background number batch (release, bulk update, bulk purchase; docs/numbers.md) settled its
   * last item. `numberIds`: the numbers of the items done (for a purchase: the numbers bought).
   */
  'number.batch-finished': z.object({
    companyId: id,
    batchId: z.string(),
    kind: z.enum(['release', 'update', 'purchase']),
    numberIds: z.array(id),
  }),
} as const;
