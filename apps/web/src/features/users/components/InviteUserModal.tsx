import { Button, Group, Modal, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AssignableRole } from '../roles';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useInvite, useRoles } from '../api/users';
import { useAssignableNumbers } from '../api/company-numbers';

/**
 * Invite someone to the selected account by e-mail with a role (and, optionally, their name and the
 * numbers that ring them). A person who already has an account is added at once.
 */
export function InviteUserModal({ opened, onClose, canGiveOwner }: { opened: boolean; onClose: () => void; canGiveOwner: boolean }) {
  const roles = useRoles();
  const numbers = useAssignableNumbers(opened);
  const invite = useInvite();
  const form = useForm({
    initialValues: { email: '', role: 'user' as string, first_name: '', last_name: '', numbers: [] as string[] },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address'),
      role: (v) => (v ? null : 'Choose a role'),
    },
  });
  const roleOptions = (roles.data ?? [])
    .filter((r) => r.assignable && (r.value !== 'owner' || canGiveOwner))
    .map((r) => ({ value: r.value, label: `${r.label} — ${r.description}` }));

  const close = () => {
    form.reset();
    invite.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    invite.mutate(
      {
        email: values.email.trim(),
        role: values.role as AssignableRole,
        first_name: values.first_name.trim() || undefined,
        last_name: values.last_name.trim() || undefined,
        numbers: values.numbers.map(Number),
      },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          close();
        },
        onError: (error) => {
          if (error instanceof HttpError && error.status === 422) {
            form.setErrors(Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [k.split('.')[0]!, v.join(' ')])));
          } else notify.danger(error.message, 10_000);
        },
      },
    ),
  );

  return (
    <Modal opened={opened} onClose={close} title="Invite a user">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="E-mail" type="email" required autoComplete="off" data-autofocus {...form.getInputProps('email')} />
          <Select label="Role" required data={roleOptions} allowDeselect={false} comboboxProps={{ withinPortal: true }} {...form.getInputProps('role')} />
          <Group grow>
            <TextInput label="First name" {...form.getInputProps('first_name')} />
            <TextInput label="Last name" {...form.getInputProps('last_name')} />
          </Group>
          <MultiSelect
            label="Numbers that ring them"
            description="In-app calls to these numbers ring the people they are assigned to."
            placeholder={numbers.data?.length ? 'Choose numbers' : 'No numbers yet'}
            data={(numbers.data ?? []).map((n) => ({ value: String(n.id), label: n.label ? `${n.national_number} · ${n.label}` : n.national_number }))}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('numbers')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
