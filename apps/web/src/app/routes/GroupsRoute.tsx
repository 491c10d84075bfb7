import { LabelsManager } from '../../features/contacts/components/LabelsManager';
import { GroupsPage } from '../../features/groups/components/GroupsPage';

/** Groups with the contact labels below them. */
export function GroupsRoute() {
  return <GroupsPage extra={<LabelsManager />} />;
}
