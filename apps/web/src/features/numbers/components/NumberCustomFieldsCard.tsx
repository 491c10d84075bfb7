import { Card, Skeleton, Title } from '@mantine/core';
import { CustomFieldValuesEditor, type CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { notify } from '../../../lib/notify';
import { useNumber } from '../api/get-number';
import { useSaveNumberCustomFields } from '../api/save-number-custom-fields';

/**
 * The number's custom-field values (GET/PUT /api/numbers/{id} eavAttributeValues). `attributes`:
 * the company's Number custom fields, handed in by the app.
 */
export function NumberCustomFieldsCard({ numberId, attributes }: { numberId: number; attributes: CustomFieldAttribute[] }) {
  const number = useNumber(numberId);
  const save = useSaveNumberCustomFields();
  return (
    <Card withBorder radius="md" padding="md" data-testid="number-custom-fields">
      <Title order={5} mb="xs">
        Custom fields
      </Title>
      {number.data ? (
        <CustomFieldValuesEditor
          attributes={attributes}
          values={number.data.eavAttributeValues}
          emptyText="No number custom fields yet. Add them under Custom fields."
          onSave={(values) => save.mutateAsync({ id: numberId, values }, { onSuccess: (result) => notify.success(result.message) })}
        />
      ) : (
        <Skeleton height={36} />
      )}
    </Card>
  );
}
