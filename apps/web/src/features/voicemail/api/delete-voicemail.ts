/** DELETE /api/voicemails/{id}: removes a voicemail and its recording. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Infer, MessageBody } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { voicemailsKey } from './get-voicemails';

export function deleteVoicemail(id: number): Promise<Infer<typeof MessageBody>> {
  return http.delete<Infer<typeof MessageBody>>(`/api/voicemails/${id}`);
}

export function useDeleteVoicemail() {
  const queryClient = useQueryClient();
  const key = voicemailsKey(useCompanyId());
  return useMutation({ mutationFn: deleteVoicemail, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}
