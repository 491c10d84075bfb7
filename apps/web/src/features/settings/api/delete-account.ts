/**
 * DELETE /api/companies/{companyId} `{name}` (docs/accounts.md "Deleting an account"): the owner deletes the selected
 * account, typing its name to confirm. Refused (422 on `account`) with the spec's message while the account has
 * numbers or activity on them, and on `name` when the typed name is not the account's. Afterwards the current user
 * is read again (the account leaves its companies) and the cache is cleared.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, DeleteAccountInput } from '@switchboard/contracts';
import { http } from '../../../lib/http';
import { signIn } from '../../../lib/session';

export function useDeleteAccount(companyId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => http.delete<{ message: string }>(`/api/companies/${companyId}`, input, { silent: true }),
    onSuccess: async () => {
      queryClient.clear();
      // The deleted account is no longer among the person's companies: the session selects another one.
      signIn(await http.get<CurrentUser>('/api/user'));
    },
  });
}
