/**
 * Call updates applied optimistically (spec 001 "Calls": "A call update is applied optimistically
 * and undone on failure"): the cached call changes at once; on failure it is restored and the
 * notice "Failed to update call" shows.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_TOAST_MS, FAILED_TO_UPDATE_CALL } from '@switchboard/domain';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { addCallTags, removeCallTags } from '../api/call-tags';
import { createCallNote, updateNote } from '../api/notes';
import { patchCall } from '../api/patch-call';
import { callQueryOptions } from '../api/get-call';
import type { CallDetail } from '../types';

export type CallChange =
  | { kind: 'qualification'; value: CallDetail['qualification'] }
  | { kind: 'add-tag'; name: string }
  | { kind: 'remove-tag'; name: string }
  | { kind: 'note'; body: string }
  /** Not applied ahead: a refused value (422) keeps the person's input and shows the field errors. */
  | { kind: 'custom-fields'; values: Array<{ attribute_id: number; value: unknown }> };

function applyLocally(call: CallDetail, change: CallChange): CallDetail {
  switch (change.kind) {
    case 'qualification':
      return { ...call, qualification: change.value };
    case 'add-tag':
      return call.tags.some((t) => t.name.toLowerCase() === change.name.toLowerCase())
        ? call
        : { ...call, tags: [...call.tags, { id: -Date.now(), name: change.name }] };
    case 'remove-tag':
      return { ...call, tags: call.tags.filter((t) => t.name.toLowerCase() !== change.name.toLowerCase()) };
    case 'note': {
      const now = new Date().toISOString();
      const note = call.note
        ? { ...call.note, body: change.body, updated_at: now }
        : { id: -1, model_type: 'call', model_id: call.id, body: change.body, user_id: null, created_at: now, updated_at: now };
      return { ...call, note };
    }
    case 'custom-fields':
      return call;
  }
}

async function send(call: CallDetail, change: CallChange): Promise<Partial<CallDetail>> {
  switch (change.kind) {
    case 'qualification':
      return patchCall(call.id, { qualification: change.value });
    case 'add-tag':
      return { tags: (await addCallTags(call.id, [change.name])).data };
    case 'remove-tag':
      return { tags: (await removeCallTags(call.id, [change.name])).data };
    case 'note': {
      const saved = call.note && call.note.id > 0 ? await updateNote(call.note.id, change.body) : await createCallNote(call.id, change.body);
      return { note: saved.data };
    }
    case 'custom-fields':
      return { eavAttributeValues: (await patchCall(call.id, { eavAttributeValues: change.values })).eavAttributeValues };
  }
}

export function useCallUpdate(callId: number) {
  const queryClient = useQueryClient();
  const key = callQueryOptions(useCompanyId(), callId).queryKey;
  return useMutation({
    mutationFn: async (change: CallChange) => {
      const call = queryClient.getQueryData<CallDetail>(key);
      if (!call) throw new Error('call not loaded');
      return send(call, change);
    },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<CallDetail>(key);
      if (before) queryClient.setQueryData<CallDetail>(key, applyLocally(before, change));
      return { before };
    },
    onSuccess: (patch) => queryClient.setQueryData<CallDetail>(key, (call) => (call ? { ...call, ...patch } : call)),
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      notify.danger(FAILED_TO_UPDATE_CALL, ERROR_TOAST_MS);
    },
  });
}
