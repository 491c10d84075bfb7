/** Route components of sms-verification (app/router.tsx); each page is its own chunk. */
import { SmsVerificationPage } from '../../features/sms-verification/components/SmsVerificationPage';

/** /sms-verification: brand and campaign registration (docs/sms-verification.md "Screen"). */
export function SmsVerificationRoute() {
  return <SmsVerificationPage />;
}
