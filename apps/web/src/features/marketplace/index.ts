/** The number marketplace feature (spec 002 §7 "Marketplace"; docs/marketplace.md): the /marketplace page. */
export { MarketplacePage } from './components/MarketplacePage';
