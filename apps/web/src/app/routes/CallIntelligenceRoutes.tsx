/** Route components of call-intelligence (app/router.tsx); each page is its own chunk. */
import { CallSearchPage } from '../../features/call-intelligence';
import { RequireAbility } from '../../components/RequireAbility';

export { AskAboutCall } from '../../features/call-intelligence';

/** /calls/search */
export function CallSearchRoute() {
  return (
    <RequireAbility ability="calls.read" title="Transcript search">
      <CallSearchPage />
    </RequireAbility>
  );
}
