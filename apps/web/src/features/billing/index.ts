/** The billing feature (spec 001 "Company billing", spec 002 "Subscription"; docs/billing.md): the /billing page and the past-due banner. */
export { BillingPage } from './components/BillingPage';
export { PastDueBanner } from './components/PastDueBanner';
