import { Card, Divider, Skeleton, Stack, Text, Title } from '@mantine/core';
import { CustomFieldValuesEditor, type CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { notify } from '../../../lib/notify';
import { useCan } from '../../../lib/access';
import { useCompanyId, useSession } from '../../../lib/session';
import { useCompanyCustomFieldValues, useSaveCompanyCustomFields } from '../api/company-custom-fields';
import { useSaveUserCustomFields, useUserCustomFieldValues } from '../api/user-custom-fields';

/**
 * Custom-field values of the selected company (owners and administrators edit; others read) and of
 * the signed-in user in that company. `companyAttributes` / `userAttributes`: the company's Company
 * and User custom fields, handed in by the app.
 */
export function CustomFieldsSettingsCard({
  companyAttributes,
  userAttributes,
}: {
  companyAttributes: CustomFieldAttribute[];
  userAttributes: CustomFieldAttribute[];
}) {
  const { user } = useSession();
  const companyId = useCompanyId();
  // Company settings are for settings.manage (docs/permissions.md); others see them read-only.
  const canEdit = useCan('settings.manage');
  const companyValues = useCompanyCustomFieldValues();
  const userValues = useUserCustomFieldValues();
  const saveCompany = useSaveCompanyCustomFields();
  const saveUser = useSaveUserCustomFields();

  return (
    <Card withBorder radius="md" padding="lg" data-testid="custom-fields-settings">
      <Title order={4} mb={4}>
        Custom fields
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Extra details kept about the company and about you. Define the fields under Custom fields.
      </Text>
      <Stack gap="md">
        <div>
          <Text fw={500} size="sm" mb="xs">
            Company
          </Text>
          {companyValues.data ? (
            <CustomFieldValuesEditor
              attributes={companyAttributes}
              values={companyValues.data}
              readOnly={!canEdit}
              columns={2}
              emptyText="No company custom fields yet."
              onSave={(values) => saveCompany.mutateAsync(values, { onSuccess: (r) => notify.success(r.message) })}
            />
          ) : (
            <Skeleton height={36} />
          )}
        </div>
        <Divider />
        <div>
          <Text fw={500} size="sm" mb="xs">
            You
          </Text>
          {userValues.data ? (
            <CustomFieldValuesEditor
              attributes={userAttributes}
              values={userValues.data}
              columns={2}
              emptyText="No user custom fields yet."
              saveLabel="Save my fields"
              onSave={(values) => saveUser.mutateAsync(values, { onSuccess: (r) => notify.success(r.message) })}
            />
          ) : (
            <Skeleton height={36} />
          )}
        </div>
      </Stack>
    </Card>
  );
}
