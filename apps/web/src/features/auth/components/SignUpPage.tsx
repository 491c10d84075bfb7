import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { PasswordField } from '../../../components/PasswordField';
import { useForm } from '@mantine/form';
import { localTimeZone } from '@switchboard/domain';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { TimezoneSelect } from '../../../components/TimezoneSelect';
import { HttpError } from '../../../lib/http';
import { login } from '../api/login';
import { useSignupCheck, type SignupInput } from '../api/signup-check';
import { useSignupCreate } from '../api/signup-create';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

/**
 * Sign-up (foundation §2, §7): a new user and company (the creator becomes owner). Checks the fields
 * with /client/signup/check, creates with /client/signup/create, then signs in.
 */
export function SignUpPage() {
  const check = useSignupCheck();
  const create = useSignupCreate();
  const complete = useCompleteSignIn();
  const form = useForm<SignupInput>({
    initialValues: { first_name: '', last_name: '', email: '', password: '', company_name: '', timezone: localTimeZone() },
    validate: {
      first_name: (v) => (v.trim() ? null : 'Enter your first name'),
      last_name: (v) => (v.trim() ? null : 'Enter your last name'),
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
      password: (v) => (v.length >= 8 ? null : 'Use at least 8 characters'),
      company_name: (v) => (v.trim() ? null : 'Enter your company name'),
    },
  });

  const showFieldErrors = (error: unknown) => {
    if (error instanceof HttpError && error.status === 422) {
      form.setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k, v.join(' ')])));
    }
  };

  const submit = form.onSubmit(async (values) => {
    const input = { ...values, email: values.email.trim() };
    try {
      await check.mutateAsync(input);
      const created = await create.mutateAsync(input);
      const signedIn = await login({ email: input.email, password: input.password }).catch(() => null);
      await complete(signedIn && 'user' in signedIn ? signedIn.user : created.user, '/numbers');
    } catch (error) {
      showFieldErrors(error);
    }
  });

  return (
    <CenteredCard
      title="Create your account"
      subtitle="Set up your company and get a business number in minutes."
      width={520}
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/login" size="sm">
            Sign in
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label="First name" required {...form.getInputProps('first_name')} />
            <TextInput label="Last name" required {...form.getInputProps('last_name')} />
          </Group>
          <TextInput label="Company name" required {...form.getInputProps('company_name')} />
          <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordField label="Password" autoComplete="new-password" required {...form.getInputProps('password')} />
          <TimezoneSelect {...form.getInputProps('timezone')} />
          <Button type="submit" loading={check.isPending || create.isPending} fullWidth>
            Create account
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
