/** Route components of marketplace (app/router.tsx); each page is its own chunk. */
import { RequireAbility } from '../../components/RequireAbility';
import { MarketplacePage } from '../../features/marketplace';

/** /marketplace (browsing needs `numbers.read`; docs/marketplace.md). */
export function MarketplaceRoute() {
  return (
    <RequireAbility ability="numbers.read" title="Number marketplace">
      <MarketplacePage />
    </RequireAbility>
  );
}
