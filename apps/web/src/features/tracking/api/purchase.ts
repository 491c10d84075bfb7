/**
 * Numbers for a pool from the carrier's inventory: `GET /api/numbers/search` (local by area code or
 * toll-free), then the chosen ones go in the pool's `purchase` list, which the server buys through the
 * existing bulk purchase (docs/tracking-screens.md "Buying numbers for a pool").
 */
import { useMutation } from '@tanstack/react-query';
import type { Infer, NumberSearchBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';

export type AvailableNumber = Infer<typeof NumberSearchBody>['data'][number];

export interface InventoryQuery {
  type: 'local' | 'toll_free';
  /** Area code (local) or prefix (toll-free), 3 digits; empty: any. */
  code: string;
  count: number;
}

/** Finds `count` purchasable numbers (the carrier may offer fewer). */
export function useInventorySearch() {
  return useMutation({
    mutationFn: async (q: InventoryQuery) =>
      (
        await http.get<Infer<typeof NumberSearchBody>>('/api/numbers/search', {
          params: {
            type: q.type,
            areaCode: q.type === 'local' && q.code ? q.code : undefined,
            prefix: q.type === 'toll_free' && q.code ? q.code : undefined,
            limit: q.count,
          },
        })
      ).data,
  });
}
