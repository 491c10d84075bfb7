/**
 * User-facing messages (foundation §2, §8; spec 001 §5, §7, §8; spec 002 §8). Texts the spec quotes
 * are copied verbatim; texts the spec only describes ("not shown") are marked "Designed" and listed
 * in docs/domain-decisions.md.
 */

// --- Session and errors (foundation §2, §8; spec 001 §8) ---

/** Session expired (foundation §2, §8). */
export const LINK_EXPIRED = 'Link expired. Please log in.';
/** Password reset link expired (foundation §8, spec 002 §8). */
export const RESET_LINK_EXPIRED = 'Your reset link has expired. Please try to resend it again.';
/**
 * Any other failure (foundation §8, spec 001 §8).
 *
 * @param email the support e-mail address
 */
export const UNKNOWN_ERROR = (email: string): string => `An unknown error has occurred, please try again or contact support by emailing us at ${email}`;
/** Newer handler, HTTP 401 (foundation §8, spec 001 §8). */
export const NOT_AUTHORIZED = "You're not authorized to perform this action";
/** Newer handler, nothing else to show (foundation §8, spec 001 §8). */
export const UNKNOWN_ERROR_SHORT = 'Unknown error';
/** Designed: warning on the first HTTP 429 retry (foundation §8: the per-second request limit was reached, responses will be slower). */
export const RATE_LIMIT_WARNING = 'The limit of requests per second has been reached. Responses will be slower for a moment.';
/** Title of an error notice, e.g. an SMS verification submit error (spec 002 §8). */
export const ERROR_TITLE = 'Error';
/** Title of a warning notice (foundation §8 "Warning: ..."). */
export const WARNING_TITLE = 'Warning';

// --- Account, password and settings (foundation §8; spec 002 §8) ---

/** Password reset success (foundation §8, spec 002 §8). */
export const PASSWORD_CHANGED = 'Password changed successfully. You can now login with new password.';
/** Password change success (foundation §8, spec 002 §8). */
export const PASSWORD_CHANGED_SHORT = 'Your password was successfully changed';
/** Settings saved (foundation §8, spec 002 §8). */
export const SETTINGS_UPDATED = 'Settings were successfully updated';
/** Settings restored to defaults (foundation §8, spec 002 §8). */
export const SETTINGS_RESTORED = 'Settings were successfully restored';
/** Information saved (foundation §8, spec 002 §8). */
export const INFORMATION_UPDATED = 'Information updated successfully';
/** Invitation resent (foundation §8, spec 002 §8). */
export const INVITATION_RESENT = 'Invitation was successfully resent';
/** Feature switched on (foundation §8, spec 002 §8). */
export const FEATURE_ENABLED = 'Feature enabled successfully';
/** Feature switched off (foundation §8, spec 002 §8). */
export const FEATURE_DISABLED = 'Feature disabled successfully';
/** Number saved (spec 002 §8). */
export const NUMBER_UPDATED = 'The number has been updated';
/** SMS verification submitted (spec 002 §8). */
export const SMS_VERIFICATION_SUBMITTED = 'Your SMS Verification has been submitted successfully.';
/** Number limit increase requested (spec 002 §8). */
export const NUMBER_LIMIT_INCREASE_SUBMITTED = 'Your request to increase the number limit has been submitted.';
/** Deleting an account with numbers or activity (foundation §8, spec 002 §8). */
export const CANNOT_DELETE_ACCOUNT = 'You cannot delete an account that has numbers added or has any activity on those numbers';
/** Removing an organization admin failed (foundation §8, spec 002 §8). */
export const FAILED_TO_REMOVE_ORG_ADMIN = 'Failed to remove Organization Admin';
/** Accounts without a subscription, shown with the title {@link WARNING_TITLE} (foundation §8, spec 001 §8, spec 002 §8). */
export const ACCOUNTS_WITHOUT_SUBSCRIPTION = 'You have accounts without a subscription. Please contact support!';

// --- Billing (foundation §8, spec 001 §8) ---

/**
 * Past-due account (foundation §8, spec 001 §8). The opening words are the spec's; the rest is designed.
 *
 * @param amount the outstanding amount, already formatted (e.g. with formatCurrency)
 */
export const OUTSTANDING_BALANCE = (amount: string): string =>
  `Your account has an outstanding balance of ${amount}. Please update your payment info to reactivate your account.`;
/** Designed: payment method saved (foundation §8: not charged until the next billing cycle). */
export const PAYMENT_METHOD_SAVED = 'Your payment method has been saved. It will not be charged until the next billing cycle.';
/** Designed: saved but still past due (foundation §8: contact Customer Success). */
export const PAYMENT_SAVED_STILL_PAST_DUE = 'Your payment method has been saved, but your account is still past due. Please contact Customer Success.';
/** Designed: card processing issue (foundation §8: contact the card issuer and try again). */
export const CARD_PROCESSING_ISSUE = 'There was an issue processing your card. Please contact your card issuer and try again.';
/** Designed: generic billing update failure, shown for 30 s (spec 001 §8). */
export const BILLING_UPDATE_FAILED = 'Failed to update billing details';

// --- Contacts, calls, inbox (foundation §8; spec 001 §5, §7, §8) ---

/** Designed: invalid contact import file (foundation §8: needs name and number columns). */
export const INVALID_CONTACT_FILE = 'The file must have valid name and number columns.';
/** Contact import failure (foundation §8, spec 001 §8). */
export const IMPORT_FAILURE = 'Import failure. Please try to import contacts once again';
/** Designed: caller ID lookup found nothing (foundation §8: withheld or not registered in national databases). */
export const CALLER_ID_NOT_FOUND = 'This number is withheld or not registered in national databases.';
/** Call update failure (spec 001 §8). */
export const FAILED_TO_UPDATE_CALL = 'Failed to update call';
/** Conversation load failure, title (spec 001 §8). */
export const ERROR_LOADING_CONVERSATIONS = 'Error loading conversations';
/** Conversation load failure, detail (spec 001 §8). */
export const PLEASE_TRY_LATER = 'Please try again later';
/** SMS too long (spec 001 §5). */
export const SMS_TOO_LONG = 'Max 1000 characters per SMS';
/** MMS too long (spec 001 §5). */
export const MMS_TOO_LONG = 'Max 1000 characters per MMS';
/**
 * Caller blocked (spec 001 §7).
 *
 * @param target the blocked number or caller
 */
export const BLOCKED = (target: string): string => `${target} has been blocked`;
/**
 * Caller unblocked (spec 001 §7).
 *
 * @param target the unblocked number or caller
 */
export const UNBLOCKED = (target: string): string => `${target} has been unblocked`;

// --- Other success messages (spec 001 §7) ---

/** Alert updated (spec 001 §7). */
export const ALERT_UPDATED = 'Alert updated successfully';
/** API key created (spec 001 §7). */
export const API_KEY_CREATED = 'API key created successfully';
/** API key deleted (spec 001 §7). */
export const API_KEY_DELETED = 'API key deleted successfully';
/** Column preset created (spec 001 §7). */
export const COLUMN_PRESET_CREATED = 'Column preset was successfully created';
/** Column preset updated (spec 001 §7 "... updated"). */
export const COLUMN_PRESET_UPDATED = 'Column preset was successfully updated';
/** Column preset removed (spec 001 §7 "... removed"). */
export const COLUMN_PRESET_REMOVED = 'Column preset was successfully removed';
/** Custom field created (spec 001 §7). */
export const CUSTOM_FIELD_CREATED = 'Custom field created successfully';
/** Custom field updated (spec 001 §7 "... updated successfully"). */
export const CUSTOM_FIELD_UPDATED = 'Custom field updated successfully';
/** Custom field deleted (spec 001 §7 "... deleted successfully"). */
export const CUSTOM_FIELD_DELETED = 'Custom field deleted successfully';
/** Custom field override deleted (spec 001 §7). */
export const CUSTOM_FIELD_OVERRIDE_DELETED = 'Custom field override was deleted successfully';

// --- Consumer area (spec 002 §4, §8) ---

/** Designed: consumer sign-up answered 409 (spec 002 §4: the account already exists). */
export const CONSUMER_ACCOUNT_EXISTS = 'An account already exists. Please sign in instead.';
/** Designed: consumer sign-in answered 401 for a provider other than e-mail or phone (spec 002 §4: no account exists). */
export const CONSUMER_NO_ACCOUNT = 'No account exists for this sign-in. Please sign up first.';
