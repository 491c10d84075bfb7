/** Support tickets (docs/workspace.md "Support"): POST /api/contact/support-ticket/{companyId} (multipart), GET /api/contact/support-tickets. */
import type { Infer, SupportTicketList, SupportTicketSaved } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';

export type SupportTicket = Infer<typeof SupportTicketList>['data'][number];
const key = (companyId: number | null) => ['support-tickets', companyId] as const;

export function useMySupportTickets() {
  const companyId = useCompanyId();
  return useQuery({
    queryKey: key(companyId),
    queryFn: () => http.get<Infer<typeof SupportTicketList>>('/api/contact/support-tickets', { params: { companyId } }),
    enabled: companyId !== null,
    select: (r) => r.data,
  });
}

export type SupportForm = { message: string; callbackRequested: boolean; callbackNumber: string; pageUrl: string; attachments: File[] };

export function useSendSupportTicket() {
  const companyId = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (f: SupportForm) => {
      const body = new FormData();
      body.append('message', f.message);
      body.append('callback_requested', f.callbackRequested ? '1' : '0');
      if (f.callbackNumber.trim()) body.append('callback_number', f.callbackNumber.trim());
      if (f.pageUrl.trim()) body.append('page_url', f.pageUrl.trim());
      for (const file of f.attachments) body.append('attachments[]', file, file.name);
      return http.post<Infer<typeof SupportTicketSaved>>(`/api/contact/support-ticket/${companyId}`, body);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: key(companyId) }),
  });
}
