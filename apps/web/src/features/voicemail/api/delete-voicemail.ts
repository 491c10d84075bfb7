/** DELETE /api/voicemails/{id}: removes a voicemail and its recording. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { useCompanyId } from '../../../lib/session';
import { voicemailsKey } from './get-voicemails';

export function deleteVoicemail(id: number): Promise<{ message: string }> {
  return http.delete<{ message: string }>(`/api/voicemails/${id}`);
}

export function useDeleteVoicemail() {
  const queryClient = useQueryClient();
  const key = voicemailsKey(useCompanyId());
  return useMutation({ mutationFn: deleteVoicemail, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}
