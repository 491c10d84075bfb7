/**
 * SMS verification API hooks (spec 002 §7 "SMS verification"; docs/sms-verification.md "Routes"): the company's
 * campaigns (cached 3 minutes, spec 002 §9, and refetched on the live `sms verification updated` event), save a draft
 * (JSON create, multipart update with opt-in supporting files), submit, cancel per side (the campaign is refetched
 * 15 s later, spec 002 §9), add and remove numbers, delete.
 */
import {
  SMS_VERIFICATION_CACHE_MS,
  SMS_VERIFICATION_CANCEL_REFRESH_MS,
  type Infer,
  type SmsCampaignAnswer,
  type SmsCampaignList,
  type SmsCampaignMessageAnswer,
  type SmsSide,
  type SmsVerificationSave,
} from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useCompanyId } from '../../../lib/session';

export type SmsCampaign = Infer<typeof SmsCampaignList>['data'][number];
/** A company number as the numbers list answers it (only what this screen needs). */
export type CompanyNumber = { id: number; number: string; national_number: string; type: number; label: string | null; type_label: string };

const key = (c: number | null) => companyKey(c, 'sms-verification');
const base = (c: number | null) => `/api/companies/${c}/sms-verification/campaign`;

/** The company's campaigns, newest first; live on `sms verification updated`. */
export function useSmsCampaigns() {
  const c = useCompanyId();
  const qc = useQueryClient();
  useRealtimeEvent(c === null ? null : `company.${c}`, 'sms verification updated', () => void qc.invalidateQueries({ queryKey: key(c) }));
  return useQuery({
    queryKey: key(c),
    queryFn: () => http.get<Infer<typeof SmsCampaignList>>(base(c)),
    enabled: c !== null,
    staleTime: SMS_VERIFICATION_CACHE_MS,
    select: (r) => r.data,
  });
}

/** The company's voice-and-SMS numbers (to put on a campaign). */
export function useCompanyNumbersForSms() {
  const c = useCompanyId();
  return useQuery({
    queryKey: companyKey(c, 'numbers', 'sms-verification'),
    queryFn: () => http.get<{ data: CompanyNumber[] }>(`/api/companies/${c}/numbers`),
    enabled: c !== null,
    select: (r) => r.data.filter((n) => n.type_label !== 'Fax number'),
  });
}

function useSetCampaign() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return (campaign: SmsCampaign) => {
    qc.setQueryData<Infer<typeof SmsCampaignList>>(key(c), (old) =>
      old ? { data: old.data.some((x) => x.id === campaign.id) ? old.data.map((x) => (x.id === campaign.id ? campaign : x)) : [campaign, ...old.data] } : old,
    );
    void qc.invalidateQueries({ queryKey: companyKey(c, 'numbers') });
  };
}

/** Saves the draft: a new campaign (JSON) or an update of `{id, brandId}` (multipart with files per opt-in index). */
export function useSaveSmsDraft() {
  const c = useCompanyId();
  const set = useSetCampaign();
  return useMutation({
    mutationFn: async (input: { id?: number; brandId?: number; data: SmsVerificationSave; files?: Map<number, File[]> }) => {
      if (!input.id || !input.brandId) return (await http.post<Infer<typeof SmsCampaignAnswer>>(base(c), input.data, { silent: true })).data;
      const form = new FormData();
      form.append('data', JSON.stringify(input.data));
      for (const [i, files] of input.files ?? []) for (const f of files) form.append(`optin_${i}_files`, f, f.name);
      return (await http.post<Infer<typeof SmsCampaignAnswer>>(`${base(c)}/${input.id}/${input.brandId}`, form, { silent: true })).data;
    },
    onSuccess: set,
  });
}

/** Submit: the answer carries the spec's success message; a failure's message is shown with title Error by the caller. */
/**
 * POST …/campaign/{id}/check: the submit's checks alone (complete brand and campaign; nothing sent or charged), asked
 * before the fee confirmation. Quiet: a 422's field errors and message are shown by the form.
 */
export function useCheckSms() {
  const c = useCompanyId();
  return useMutation({
    mutationFn: (id: number) => http.post<{ message: string }>(`${base(c)}/${id}/check`, {}, { silent: true }),
  });
}

export function useSubmitSms() {
  const c = useCompanyId();
  const set = useSetCampaign();
  return useMutation({
    mutationFn: (id: number) => http.post<Infer<typeof SmsCampaignMessageAnswer>>(`${base(c)}/${id}/submit`, {}, { silent: true }),
    onSuccess: (r) => set(r.data),
  });
}

/** Cancel per side: the sides show expired at once; the campaign is read again after 15 s (spec 002 §4, §9). */
export function useCancelSms() {
  const c = useCompanyId();
  const qc = useQueryClient();
  const set = useSetCampaign();
  return useMutation({
    mutationFn: (input: { id: number; sides: SmsSide[] }) =>
      http.post<Infer<typeof SmsCampaignMessageAnswer>>(`${base(c)}/${input.id}/cancel`, { sides: input.sides }),
    onMutate: (input) => {
      qc.setQueryData<Infer<typeof SmsCampaignList>>(key(c), (old) =>
        old
          ? {
              data: old.data.map((x) =>
                x.id === input.id
                  ? {
                      ...x,
                      status: {
                        local: input.sides.includes('local') ? 'expired' : x.status.local,
                        toll_free: input.sides.includes('toll_free') ? 'expired' : x.status.toll_free,
                      },
                    }
                  : x,
              ),
            }
          : old,
      );
    },
    onSuccess: (r) => set(r.data),
    onSettled: () => {
      setTimeout(() => void qc.invalidateQueries({ queryKey: key(c) }), SMS_VERIFICATION_CANCEL_REFRESH_MS);
    },
  });
}

/** Add or remove numbers. */
export function useSmsNumbers() {
  const c = useCompanyId();
  const set = useSetCampaign();
  return useMutation({
    mutationFn: (input: { id: number; action: 'add-numbers' | 'remove-numbers'; numberIds: number[] }) =>
      http.post<Infer<typeof SmsCampaignMessageAnswer>>(`${base(c)}/${input.id}/${input.action}`, { number_ids: input.numberIds }),
    onSuccess: (r) => set(r.data),
  });
}

/** Deletes a draft (or a canceled or rejected campaign). */
export function useDeleteSms() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<{ message: string }>(`${base(c)}/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key(c) }),
  });
}
