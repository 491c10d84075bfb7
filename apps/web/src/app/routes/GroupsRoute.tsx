import { LabelsManager } from '../../features/contacts/components/LabelsManager';
import { GroupsPage } from '../../features/groups/components/GroupsPage';
import { RequireAbility } from '../../components/RequireAbility';

/** Groups with the contact labels below them. */
export function GroupsRoute() {
  return (
    <RequireAbility ability="contacts.read" title="Groups">
      <GroupsPage extra={<LabelsManager />} />
    </RequireAbility>
  );
}
