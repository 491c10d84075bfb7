import { formatPhone } from '@switchboard/domain';
import { InboxPage } from '../../features/inbox/components/InboxPage';
import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { RequireAbility } from '../../components/RequireAbility';

/** Composes the inbox with the company's numbers (its number filter). */
export function InboxRoute() {
  return (
    <RequireAbility ability="inbox.read" title="Inbox">
      <Inbox />
    </RequireAbility>
  );
}

function Inbox() {
  const numbers = useCompanyNumbers();
  return <InboxPage numbers={numbers.data?.data.map((n) => ({ value: String(n.id), label: `${formatPhone(n.number)}${n.label ? ` · ${n.label}` : ''}` }))} />;
}
