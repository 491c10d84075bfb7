/**
 * General settings (docs/workspace.md "General settings"): GET /api/general-settings, GET /api/general-settings/index,
 * POST /api/general-settings, POST /api/general-settings/bulk, DELETE /api/general-settings, GET|PUT /api/feature/ai-eav.
 */
import type {
  GeneralSettingsBody,
  GeneralSettingsBulkSaved,
  GeneralSettingsIndex,
  GeneralSettingsSaved,
  AiEavFeatureBody,
  Infer,
} from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';

export type GeneralSettings = Infer<typeof GeneralSettingsBody>['defaults'];
export type GeneralSettingsEntry = Infer<typeof GeneralSettingsBody>['data'];

const key = ['general-settings'] as const;

export function useGeneralSettings() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: [...key, 'company', companyId],
    queryFn: () => http.get<Infer<typeof GeneralSettingsBody>>('/api/general-settings', { params: { companyId } }),
    enabled: companyId !== null,
  });
}

export function useGeneralSettingsIndex() {
  return useQuery({
    queryKey: [...key, 'index'],
    queryFn: () => http.get<Infer<typeof GeneralSettingsIndex>>('/api/general-settings/index'),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: key });
}

export function useSaveGeneralSettings() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (settings: GeneralSettings) => http.post<Infer<typeof GeneralSettingsSaved>>('/api/general-settings', { companyId, settings }),
    onSuccess: (r) => {
      notify.success(r.message);
      return invalidate();
    },
  });
}

export function useBulkSaveGeneralSettings() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { companyIds: number[]; settings: Partial<GeneralSettings> }) =>
      http.post<Infer<typeof GeneralSettingsBulkSaved>>('/api/general-settings/bulk', input),
    onSuccess: (r) => {
      notify.success(r.message);
      return invalidate();
    },
  });
}

export function useRestoreGeneralSettings() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => http.delete<Infer<typeof GeneralSettingsSaved>>('/api/general-settings', undefined, { params: { companyId } }),
    onSuccess: (r) => {
      notify.success(r.message);
      return invalidate();
    },
  });
}

export function useSetAiEav() {
  const companyId = useCompanyId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (enabled: boolean) => http.put<Infer<typeof AiEavFeatureBody>>('/api/feature/ai-eav', { companyId, enabled }),
    onSuccess: (r) => {
      notify.success(r.message);
      return invalidate();
    },
  });
}
