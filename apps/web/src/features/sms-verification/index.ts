/** The SMS verification feature (spec 002 "SMS verification"; docs/sms-verification.md): the /sms-verification page. */
export { SmsVerificationPage } from './components/SmsVerificationPage';
