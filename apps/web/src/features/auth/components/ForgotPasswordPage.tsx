import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { useForgotPassword } from '../api/forgot-password';

/** Forgot password: asks for the e-mail and mails a reset link (POST /api/password/forgot). */
export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address') },
  });

  return (
    <CenteredCard
      title="Reset your password"
      subtitle="Enter the e-mail you sign in with and we'll send you a reset link."
      footer={
        <Anchor component={Link} to="/login" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      {forgot.isSuccess ? (
        <Alert color="teal" icon={<IconMailCheck size={18} />} data-testid="forgot-sent">
          {forgot.data.message}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((v) => forgot.mutate(v.email.trim()))} noValidate>
          <Stack gap="sm">
            <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </CenteredCard>
  );
}
