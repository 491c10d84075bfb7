/**
 * POST /api/campaigns (create) and POST /api/campaigns/{id} with `_method=PATCH` (edit), multipart:
 * company_id, type sms, title, text, unsubscribe_text, skip_inbox 1/0, groups[], number_id,
 * should_be_sent_at (ISO; omitted = now), state draft|queued, dynamic_fields (JSON), media[] (files,
 * and URLs of stored media to keep). 422 field errors are shown on the editor's fields (silent).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CampaignDraft } from '@switchboard/domain';
import { request } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Campaign } from '../types';
import { campaignsKey } from './get-campaigns';

/** The editor's values: a campaign draft (`media` = stored media URLs to keep) that may also be queued. */
export interface CampaignFormValues extends Omit<CampaignDraft, 'type' | 'state'> {
  state: 'draft' | 'queued';
  /** New files to attach (MMS). */
  files: File[];
}

export async function saveCampaign(companyId: number, id: number | null, v: CampaignFormValues): Promise<Campaign> {
  const form = new FormData();
  if (id !== null) form.append('_method', 'PATCH');
  form.append('company_id', String(companyId));
  form.append('type', 'sms');
  form.append('title', v.title);
  form.append('text', v.text);
  form.append('unsubscribe_text', v.unsubscribe_text);
  form.append('skip_inbox', v.skip_inbox ? '1' : '0');
  for (const g of v.groups) form.append('groups[]', String(g));
  form.append('number_id', v.number_id === null ? '' : String(v.number_id));
  if (v.should_be_sent_at) form.append('should_be_sent_at', v.should_be_sent_at);
  form.append('state', v.state);
  form.append('dynamic_fields', JSON.stringify(v.dynamic_fields));
  for (const url of v.media) form.append('media[]', url);
  for (const file of v.files) form.append('media[]', file);
  const url = id === null ? '/api/campaigns' : `/api/campaigns/${id}`;
  return (await request<Campaign>(url, { method: 'POST', data: form, silent: true })).data;
}

export function useSaveCampaign() {
  const queryClient = useQueryClient();
  const companyId = useCompanyId();
  return useMutation({
    mutationFn: ({ id, values }: { id: number | null; values: CampaignFormValues }) => saveCampaign(companyId!, id, values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsKey(companyId) }),
  });
}
