/**
 * DNI reports (spec 002 "DNI"): `POST /api/dni/reports/calls` (calls and sessions grouped by a marketing
 * dimension, first- or last-touch) and `GET /api/dni/reports?company_id=` (pool health over a period:
 * utilisation per hour or day, exhaustions, the pool size the traffic needs).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DniCallsReportBody, DniCallsReportInput, DniPoolReportBody, Infer, Input } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { trackingKey } from './keys';

export type CallsReport = Infer<typeof DniCallsReportBody>;
export type CallsReportParams = Omit<Input<typeof DniCallsReportInput>, 'company_id'>;
export type PoolReportBody = Infer<typeof DniPoolReportBody>;
export type PoolReport = PoolReportBody['data'][number];

export function useCallsReport(params: CallsReportParams) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'report-calls', params),
    queryFn: () => http.post<CallsReport>('/api/dni/reports/calls', { company_id: companyId, ...params }),
    enabled: companyId !== null,
    staleTime: 30_000,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}

/** Pool health between `from` and `to` (ISO timestamps) in the browser's time zone. */
export function usePoolReport(params: { from: string; to: string; tz: string; pool_id?: number }) {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: trackingKey(companyId, 'report-pools', params),
    queryFn: () => http.get<PoolReportBody>('/api/dni/reports', { params: { company_id: companyId, ...params } }),
    enabled: companyId !== null,
    staleTime: 30_000,
    refetchOnMount: true,
    placeholderData: keepPreviousData,
  });
}
