/** PUT /api/voicemails/{id}/read | /unread: marks a voicemail heard or new (optimistic, undone on failure). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, VoicemailBody, VoicemailListBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import type { Voicemail } from '../types';
import { voicemailsKey } from './get-voicemails';

export function markVoicemail({ id, read }: { id: number; read: boolean }): Promise<Infer<typeof VoicemailBody>> {
  return http.put<Infer<typeof VoicemailBody>>(`/api/voicemails/${id}/${read ? 'read' : 'unread'}`);
}

type Page = Infer<typeof VoicemailListBody>;

export function useMarkVoicemail() {
  const queryClient = useQueryClient();
  const key = voicemailsKey(useCompanyId());
  return useMutation({
    mutationFn: markVoicemail,
    onMutate: async ({ id, read }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueriesData<Page>({ queryKey: key });
      queryClient.setQueriesData<Page>(
        { queryKey: key },
        (page) => page && { ...page, data: page.data.map((v) => (v.id === id ? { ...v, is_read: read } : v)) },
      );
      return { before };
    },
    onError: (_e, _v, context) => context?.before.forEach(([k, data]) => queryClient.setQueryData(k, data)),
  });
}
