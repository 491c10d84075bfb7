/**
 * The campaign editor's "Send from number" (docs/campaigns.md "Sending numbers"; docs/sms-verification.md "Sending
 * rules"): each number is marked when a campaign from it would be refused (not on an approved SMS verification
 * campaign) or its registration is pending, before anyone confirms a send. For a refused number the field says why and
 * links to the fix in a way that keeps the draft: SMS verification in a new tab, or the draft saved first and then
 * SMS verification in this tab (which links back to the draft).
 */
import { Alert, Anchor, Button, Group, Select, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { SendingNumber } from '../api/get-sending-numbers';
import type { Option } from '../types';

/** The path of the screen where numbers are registered. */
export const SMS_VERIFICATION_PATH = '/sms-verification';

/** A message naming `/sms-verification` with that path as a real link (the server's refusal names the screen so). */
export function withVerificationLink(message: string): ReactNode {
  const parts = message.split(`(${SMS_VERIFICATION_PATH})`);
  if (parts.length === 1) return message;
  return parts.flatMap((p, i) =>
    i === 0
      ? [p]
      : [
          <Anchor key={i} href={SMS_VERIFICATION_PATH} target="_blank" rel="noopener">
            (open SMS verification in a new tab)
          </Anchor>,
          p,
        ],
  );
}

/** The option label of a number with its sending state: "(312) 555-0147 · Main (not registered for campaigns)". */
export function markedOptions(numbers: Option[], states: SendingNumber[] | undefined): Option[] {
  return numbers.map((n) => {
    const s = states?.find((x) => String(x.number_id) === n.value);
    if (!s || s.allowed) return s?.verification === 'pending' ? { ...n, label: `${n.label} (SMS registration pending)` } : n;
    return { ...n, label: `${n.label} (not registered for campaigns)` };
  });
}

interface SendingNumberFieldProps {
  numbers: Option[];
  states: SendingNumber[] | undefined;
  value: string | null;
  onChange: (value: string | null) => void;
  error: string | undefined;
  disabled?: boolean;
  /** Saves the draft and opens SMS verification in this tab (the draft is kept on the server). */
  onSaveAndRegister: () => void;
  saving: boolean;
}

export function SendingNumberField({ numbers, states, value, onChange, error, disabled, onSaveAndRegister, saving }: SendingNumberFieldProps) {
  const blocked = states?.find((s) => String(s.number_id) === value && !s.allowed);
  // The refusal is shown once: in the alert below when the number is known to be blocked, else as the field's error.
  const fieldError = blocked && error === blocked.message ? true : error ? withVerificationLink(error) : undefined;
  return (
    <div>
      <Select
        label="Send from number"
        placeholder="Pick one of your numbers"
        description="Campaigns are sent only from numbers registered under SMS verification."
        data={markedOptions(numbers, states)}
        value={value}
        onChange={onChange}
        error={fieldError}
        disabled={disabled}
      />
      {blocked ? (
        <Alert color="yellow" variant="light" mt="xs" title="This number cannot send campaigns yet" data-testid="number-not-registered">
          <Text size="sm">{(blocked.message ?? '').replace(`: register it under SMS verification (${SMS_VERIFICATION_PATH}).`, '.')}</Text>
          <Group gap="sm" mt="xs" wrap="wrap">
            <Anchor href={SMS_VERIFICATION_PATH} target="_blank" rel="noopener" size="sm">
              Register it under SMS verification (new tab) <IconExternalLink size={12} aria-hidden />
            </Anchor>
            <Button size="compact-sm" variant="light" loading={saving} onClick={onSaveAndRegister}>
              Save draft, then register
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            You can still save this campaign as a draft; it can be sent once the number is registered.
          </Text>
        </Alert>
      ) : null}
    </div>
  );
}
