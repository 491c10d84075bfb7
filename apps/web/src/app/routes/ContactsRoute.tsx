import { EAV_ENTITY_TYPES } from '@switchboard/domain';
import { ContactsPage } from '../../features/contacts/components/ContactsPage';
import { useAttributes } from '../../features/custom-fields/api/get-attributes';
import { useGroups } from '../../features/groups/api/get-groups';
import { RequireAbility } from '../../components/RequireAbility';

/** Composes Contacts with the company's groups and the Contact custom fields (features don't import each other). */
export function ContactsRoute() {
  const groups = useGroups();
  const attributes = useAttributes(EAV_ENTITY_TYPES.Contact);
  return (
    <RequireAbility ability="contacts.read" title="Contacts">
      <ContactsPage groups={(groups.data?.data ?? []).map((g) => ({ id: g.id, name: g.name }))} attributes={attributes.data?.data ?? []} />
    </RequireAbility>
  );
}
