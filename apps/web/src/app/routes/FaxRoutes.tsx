/** Route components of fax (app/router.tsx); each page is its own chunk. */
import { FaxPage } from '../../features/fax';
import { RequireAbility } from '../../components/RequireAbility';

/** /fax */
export function FaxRoute() {
  return (
    <RequireAbility ability="inbox.read" title="Faxes">
      <FaxPage />
    </RequireAbility>
  );
}
