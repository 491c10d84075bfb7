import { Box } from '@mantine/core';
import { EAV_ENTITY_TYPES } from '@switchboard/domain';
import { LinkedAccountsCard } from '../../features/auth/components/LinkedAccountsCard';
import { useAttributes } from '../../features/custom-fields/api/get-attributes';
import { PushNotificationsCard } from '../../features/push/components/PushNotificationsCard';
import { SettingsPage } from '../../features/settings/components/SettingsPage';

/** Composes Settings with the company's Company and User custom fields and linked sign-in accounts and browser notifications (features don't import each other). */
export function SettingsRoute() {
  const company = useAttributes(EAV_ENTITY_TYPES.Company);
  const user = useAttributes(EAV_ENTITY_TYPES.User);
  return (
    <>
      <SettingsPage companyAttributes={company.data?.data ?? []} userAttributes={user.data?.data ?? []} />
      <Box maw={720} mt="lg">
        <LinkedAccountsCard />
      </Box>
      <Box maw={720} mt="lg">
        <PushNotificationsCard />
      </Box>
    </>
  );
}
