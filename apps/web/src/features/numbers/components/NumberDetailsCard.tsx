import { Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useNumberDetail } from '../api/get-number-detail';

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Group>
  );
}

/** The number's labels (spec 002 §3 tables) and SMS verification. */
export function NumberDetailsCard({ numberId }: { numberId: number }) {
  const detail = useNumberDetail(numberId);
  const d = detail.data;
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={5} mb="xs">
        Details
      </Title>
      {!d ? (
        <Stack gap={6}>
          <Skeleton height={14} />
          <Skeleton height={14} />
          <Skeleton height={14} />
        </Stack>
      ) : (
        <Stack gap={6}>
          <Row label="Type" value={d.type_label} />
          <Row label="Category" value={d.category_label} />
          <Row label="Provider" value={d.provider_label} />
          <Row label="Texting" value={d.sms_enabled ? 'On' : 'Off'} />
          {d.sms_verification ? (
            <Row
              label="SMS verification"
              value={
                <Badge size="sm" variant="light" color={d.sms_verification.status === 'verified' ? 'teal' : 'yellow'}>
                  {d.sms_verification.status}
                </Badge>
              }
            />
          ) : null}
        </Stack>
      )}
    </Card>
  );
}
