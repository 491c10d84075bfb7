/**
 * POST /api/greetings (multipart: company_id, name, content, voice, file): creates a greeting;
 * with `_method=PUT` and `id` it updates one. Answers {message, data}.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GreetingFormFields, GreetingSavedBody, Infer } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';

/** The multipart fields of the contract's `GreetingFormFields` (`id` updates) plus the audio file. */
export type SaveGreetingInput = Omit<Infer<typeof GreetingFormFields>, '_method' | 'name'> & { name: string; file?: File | null };

export function saveGreeting(input: SaveGreetingInput): Promise<Infer<typeof GreetingSavedBody>> {
  const form = new FormData();
  form.append('company_id', String(input.company_id));
  form.append('name', input.name);
  if (input.content !== undefined) form.append('content', input.content);
  if (input.voice) form.append('voice', input.voice);
  if (input.id !== undefined) {
    form.append('_method', 'PUT');
    form.append('id', String(input.id));
  }
  if (input.file) form.append('file', input.file);
  return http.post<Infer<typeof GreetingSavedBody>>('/api/greetings', form);
}

export function useSaveGreeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGreeting,
    onSuccess: (_r, input) => queryClient.invalidateQueries({ queryKey: companyKey(input.company_id, 'greetings') }),
  });
}
