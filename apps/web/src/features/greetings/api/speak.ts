/** POST /api/greetings/speak {content, voice}: synthesized speech as audio/wav (a Blob to play). */
import { useMutation } from '@tanstack/react-query';
import type { Input, SpeakInput as SpeakSchema } from '@switchboard/contracts';
import { request } from '../../../lib/http';

export type SpeakInput = Input<typeof SpeakSchema>;

export async function speak(input: SpeakInput): Promise<Blob> {
  return (await request<Blob>('/api/greetings/speak', { method: 'POST', data: input, responseType: 'blob' })).data;
}

export function useSpeak() {
  return useMutation({ mutationFn: speak });
}
