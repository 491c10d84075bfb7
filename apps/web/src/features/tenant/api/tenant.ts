/**
 * The company's white-label tenant (docs/workspace.md "Tenant"): GET /api/companies/{companyId}/tenant,
 * PUT .../tenant/tenant-information, POST .../tenant/email-sender/start-verification and .../check, the custom domain
 * (GET /api/custom-domain-configuration/tld-validation, POST /api/custom-domain-configuration, .../check, DELETE) and
 * the sandbox's DNS records.
 */
import type { CustomDomainSaved, EmailSenderSaved, Infer, Input, TenantBody, TenantInformationInput, TenantSaved, TldValidation } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { TENANT_CONFIG_KEY } from '../../../lib/tenant';

export type Tenant = Infer<typeof TenantBody>['data'];
export type DnsRecord = NonNullable<Tenant['customDomain']>['records'][number];
const key = (companyId: number | null) => ['tenant', companyId] as const;

export function useTenant() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId),
    queryFn: () => http.get<Infer<typeof TenantBody>>(`/api/companies/${companyId}/tenant`),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

function useTenantMutation<V>(fn: (v: V, companyId: number | null) => Promise<{ message: string }>) {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(v, companyId),
    onSuccess: async (r) => {
      notify.success(r.message);
      await Promise.all([qc.invalidateQueries({ queryKey: key(companyId) }), qc.invalidateQueries({ queryKey: TENANT_CONFIG_KEY })]);
    },
  });
}

export const useSaveInformation = () =>
  useTenantMutation((v: Input<typeof TenantInformationInput>, companyId) =>
    http.put<Infer<typeof TenantSaved>>(`/api/companies/${companyId}/tenant/tenant-information`, v),
  );
export const useSaveDomain = () =>
  useTenantMutation((v: { businessUnitId: number; domain: string; appSubdomain: string; apiSubdomain: string; authToken?: string }) =>
    http.post<Infer<typeof CustomDomainSaved>>('/api/custom-domain-configuration', v),
  );
export const useCheckDomain = () =>
  useTenantMutation((businessUnitId: number) => http.post<Infer<typeof CustomDomainSaved>>('/api/custom-domain-configuration/check', { businessUnitId }));
export const useRemoveDomain = () =>
  useTenantMutation((businessUnitId: number) =>
    http.delete<{ message: string }>('/api/custom-domain-configuration', undefined, { params: { businessUnitId } }),
  );
export const useStartSender = () =>
  useTenantMutation((email: string, companyId) =>
    http.post<Infer<typeof EmailSenderSaved>>(`/api/companies/${companyId}/tenant/email-sender/start-verification`, { email }),
  );
export const useCheckSender = () =>
  useTenantMutation((_: void, companyId) => http.post<Infer<typeof EmailSenderSaved>>(`/api/companies/${companyId}/tenant/email-sender/check`));
export const usePublishSandboxDns = () =>
  useTenantMutation((businessUnitId: number) => http.post<{ message: string }>('/api/custom-domain-configuration/sandbox-dns', { businessUnitId }));

/** Checks a domain name against the public-suffix list (as the person types, debounced by the caller). */
export function useTldValidation(domainName: string, businessUnitId: number | null) {
  return useQuery({
    queryKey: ['tld-validation', domainName, businessUnitId],
    queryFn: () =>
      http.get<Infer<typeof TldValidation>>('/api/custom-domain-configuration/tld-validation', {
        params: { domainName, businessUnitId: businessUnitId ?? undefined },
        silent: true,
      }),
    enabled: domainName.trim().length > 2,
    staleTime: 60_000,
  });
}
