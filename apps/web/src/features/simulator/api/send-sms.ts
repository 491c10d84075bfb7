/** POST /api/simulator/messages {from, to, body}: an outside handset texts a company number (the carrier posts the messaging webhook). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Input, SimulateMessageInput } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { handsetMessagesQueryOptions } from './get-handset-messages';

export type SendSmsInput = Input<typeof SimulateMessageInput>;

export function sendSms(input: SendSmsInput): Promise<unknown> {
  return http.post('/api/simulator/messages', input);
}

export function useSendSms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSms,
    onSuccess: (_data, input) => queryClient.invalidateQueries({ queryKey: handsetMessagesQueryOptions(input.from).queryKey }),
  });
}
