import { EAV_ENTITY_TYPES } from '@switchboard/domain';
import { useAttributes } from '../../features/custom-fields/api/get-attributes';
import { SettingsPage } from '../../features/settings/components/SettingsPage';

/** Composes Settings with the company's Company and User custom fields (features don't import each other). */
export function SettingsRoute() {
  const company = useAttributes(EAV_ENTITY_TYPES.Company);
  const user = useAttributes(EAV_ENTITY_TYPES.User);
  return <SettingsPage companyAttributes={company.data?.data ?? []} userAttributes={user.data?.data ?? []} />;
}
