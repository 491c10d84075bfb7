/**
 * The outside party's caller name (enhanced caller ID, docs/caller-id.md), shared by the inbox,
 * the call detail, the ringing softphone and activity. The company's contact name comes first (the
 * features show it as the title); this line adds what the provider knows: the CNAM name, business
 * or consumer, line type, or the spec's not-found notice (spec 000 §8). Sources:
 * - `enhanced`: an object the list already carries (conversation `enhancedCallerId`, activity
 *   `enhanced_caller_id`); nothing is fetched;
 * - `callId` / `messageId`: fetched from `GET /calls/{id}/enhanced-caller-id` or
 *   `GET /messages/{id}/enhanced-caller-id` (the cache only); when nothing is cached and `lookup`
 *   is set, a "Look up caller name" button asks the provider (`lookupWhenMissing=1`).
 */
import { Badge, Button, Group, Text } from '@mantine/core';
import type { EnhancedCallerId } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../lib/http';

const LINE_TYPES: Record<string, string> = {
  mobile: 'Mobile',
  landline: 'Landline',
  fixedVoip: 'VoIP',
  nonFixedVoip: 'VoIP',
  tollFree: 'Toll-free',
  premium: 'Premium',
  voicemail: 'Voicemail',
  pager: 'Pager',
  personal: 'Personal',
};

type Props = {
  /** A list's cached answer (null: never looked up). */
  enhanced?: EnhancedCallerId | null;
  callId?: number;
  messageId?: number;
  /** Offer a provider lookup when nothing is cached (call detail). */
  lookup?: boolean;
  /** One short line (lists); otherwise with badges and the notice. */
  compact?: boolean;
};

function urlOf(callId?: number, messageId?: number): string | null {
  if (callId) return `/api/calls/${callId}/enhanced-caller-id`;
  if (messageId) return `/api/messages/${messageId}/enhanced-caller-id`;
  return null;
}

/** The caller-name line; renders nothing when there is nothing to say. */
export function CallerName({ enhanced, callId, messageId, lookup = false, compact = false }: Props) {
  const url = enhanced === undefined ? urlOf(callId, messageId) : null;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['enhanced-caller-id', url],
    queryFn: () => http.get<EnhancedCallerId>(url!, { params: { lookupWhenMissing: 0 }, silent: true }),
    enabled: url !== null,
    staleTime: 60_000,
  });
  const lookUp = useMutation({
    mutationFn: () => http.get<EnhancedCallerId>(url!, { params: { lookupWhenMissing: 1 } }),
    onSuccess: (data) => queryClient.setQueryData(['enhanced-caller-id', url], data),
  });
  const info = enhanced === undefined ? query.data : enhanced;
  if (!info) return null;

  if (info.status === 'missing') {
    if (!lookup || !url) return null;
    return (
      <Button size="compact-xs" variant="subtle" loading={lookUp.isPending} onClick={() => lookUp.mutate()} data-testid="caller-name-lookup">
        Look up caller name
      </Button>
    );
  }
  if (info.status === 'not_found') {
    if (compact || info.contact) return null;
    return (
      <Text size="xs" c="dimmed" data-testid="caller-name-not-found">
        {info.message}
      </Text>
    );
  }
  const name = info.callerName ?? '';
  const line = info.lineType ? (LINE_TYPES[info.lineType] ?? info.lineType) : null;
  // With a contact, the provider's name is secondary ("Caller ID: …"); without one it is the caller's name.
  const label = info.contact ? `Caller ID: ${name}` : name;
  if (compact) {
    return (
      <Text size="xs" c="dimmed" truncate data-testid="caller-name">
        {label}
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap" data-testid="caller-name">
      <Text size="sm" fw={info.contact ? undefined : 600}>
        {label}
      </Text>
      {info.callerType ? (
        <Badge size="xs" variant="light" color={info.callerType === 'business' ? 'grape' : 'blue'}>
          {info.callerType === 'business' ? 'Business' : 'Consumer'}
        </Badge>
      ) : null}
      {line ? (
        <Badge size="xs" variant="outline" color="gray">
          {line}
        </Badge>
      ) : null}
    </Group>
  );
}
