/** GET /api/companies/{companyId}/numbers, read here only for the numbers a user can be assigned (features never import each other). */
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useCompanyId } from '../../../lib/session';

export type AssignableNumber = { id: number; national_number: string; number: string; label: string };

export function useAssignableNumbers(enabled: boolean) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: companyKey(companyId, 'numbers'),
    queryFn: () => http.get<{ data: AssignableNumber[] }>(`/api/companies/${companyId}/numbers`),
    enabled: enabled && companyId !== null,
    select: (r) => r.data,
  });
}
