import { Anchor, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { PasswordField } from '../../../components/PasswordField';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { HttpError } from '../../../lib/http';
import { useLogin, type LoginResult } from '../api/login';

interface SignInFormProps {
  onResult: (result: LoginResult) => void;
  /** Told when "Remember me" changes (the Google and Microsoft buttons carry it too). */
  onRememberChange?: (remember: boolean) => void;
}

/**
 * First sign-in step: e-mail, password and "Remember me" (a 14-day cookie; unticked, the session
 * ends with the browser). A 422 shows its field errors under the inputs.
 */
export function SignInForm({ onResult, onRememberChange }: SignInFormProps) {
  const login = useLogin();
  const form = useForm({
    initialValues: { email: '', password: '', remember: false },
    onValuesChange: (values, previous) => {
      if (values.remember !== previous.remember) onRememberChange?.(values.remember);
    },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
      password: (v) => (v ? null : 'Enter your password'),
    },
  });

  const submit = form.onSubmit((values) => {
    login.mutate(
      { email: values.email.trim(), password: values.password, remember: values.remember },
      {
        onSuccess: onResult,
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) form.setErrors(flatten(error.fieldErrors));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
        <PasswordField label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Group justify="space-between">
          <Checkbox label="Remember me" size="sm" {...form.getInputProps('remember', { type: 'checkbox' })} />
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" loading={login.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

function flatten(errors: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field, messages.join(' ')]));
}
