/**
 * `GET /api/company/{companyId}/billing/number-price?count=N` (docs/billing.md "Number price"): what buying `count`
 * more numbers costs on the company's plan (how many fit in its allowance, the extra ones at its monthly price), for
 * the buy dialog's confirmation. Quiet on failure: the dialog then says how numbers are billed without figures.
 */
import type { Infer, NumberPriceAnswer } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';

export type NumberPrice = Infer<typeof NumberPriceAnswer>['data'];

export function useNumberPrice(count: number) {
  const c = useCompanyId();
  return useQuery({
    queryKey: ['company', c, 'number-price', count],
    queryFn: () => http.get<Infer<typeof NumberPriceAnswer>>(`/api/company/${c}/billing/number-price?count=${count}`, { silent: true }),
    enabled: c !== null && count > 0,
    select: (r) => r.data,
  });
}
