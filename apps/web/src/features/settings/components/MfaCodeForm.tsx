import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

interface MfaCodeFormProps {
  submitLabel: string;
  loading: boolean;
  color?: string;
  onSubmit: (code: string) => void;
}

/** A 6-digit code input with one action (verify enrolment, or turn MFA off). */
export function MfaCodeForm({ submitLabel, loading, color, onSubmit }: MfaCodeFormProps) {
  const [code, setCode] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (/^\d{6}$/.test(code)) onSubmit(code);
      }}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
          w={200}
        />
        <Button type="submit" loading={loading} color={color} disabled={code.length !== 6}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
