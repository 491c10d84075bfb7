import { describe, it, expect } from 'vitest';
import * as m from './messages.js';

describe('messages quoted by the spec', () => {
  it('session and error texts (foundation §2, §8; spec 001 §8)', () => {
    expect(m.LINK_EXPIRED).toBe('Link expired. Please log in.');
    expect(m.RESET_LINK_EXPIRED).toBe('Your reset link has expired. Please try to resend it again.');
    expect(m.UNKNOWN_ERROR('support@example.com')).toBe(
      'An unknown error has occurred, please try again or contact support by emailing us at support@example.com',
    );
    expect(m.NOT_AUTHORIZED).toBe("You're not authorized to perform this action");
    expect(m.UNKNOWN_ERROR_SHORT).toBe('Unknown error');
    expect(m.ERROR_TITLE).toBe('Error');
  });

  it('success texts (foundation §8, spec 002 §8)', () => {
    expect(m.PASSWORD_CHANGED).toBe('Password changed successfully. You can now login with new password.');
    expect(m.PASSWORD_CHANGED_SHORT).toBe('Your password was successfully changed');
    expect(m.SETTINGS_UPDATED).toBe('Settings were successfully updated');
    expect(m.SETTINGS_RESTORED).toBe('Settings were successfully restored');
    expect(m.INFORMATION_UPDATED).toBe('Information updated successfully');
    expect(m.INVITATION_RESENT).toBe('Invitation was successfully resent');
    expect(m.FEATURE_ENABLED).toBe('Feature enabled successfully');
    expect(m.FEATURE_DISABLED).toBe('Feature disabled successfully');
    expect(m.NUMBER_UPDATED).toBe('The number has been updated');
    expect(m.SMS_VERIFICATION_SUBMITTED).toBe('Your SMS Verification has been submitted successfully.');
    expect(m.NUMBER_LIMIT_INCREASE_SUBMITTED).toBe('Your request to increase the number limit has been submitted.');
  });

  it('account texts (foundation §8, spec 002 §8)', () => {
    expect(m.CANNOT_DELETE_ACCOUNT).toBe('You cannot delete an account that has numbers added or has any activity on those numbers');
    expect(m.FAILED_TO_REMOVE_ORG_ADMIN).toBe('Failed to remove Organization Admin');
    expect(m.WARNING_TITLE).toBe('Warning');
    expect(m.ACCOUNTS_WITHOUT_SUBSCRIPTION).toBe('You have accounts without a subscription. Please contact support!');
  });

  it('contacts, calls and inbox texts (spec 001 §5, §7, §8)', () => {
    expect(m.IMPORT_FAILURE).toBe('Import failure. Please try to import contacts once again');
    expect(m.FAILED_TO_UPDATE_CALL).toBe('Failed to update call');
    expect(m.ERROR_LOADING_CONVERSATIONS).toBe('Error loading conversations');
    expect(m.PLEASE_TRY_LATER).toBe('Please try again later');
    expect(m.SMS_TOO_LONG).toBe('Max 1000 characters per SMS');
    expect(m.MMS_TOO_LONG).toBe('Max 1000 characters per MMS');
    expect(m.BLOCKED('+12125550123')).toBe('+12125550123 has been blocked');
    expect(m.UNBLOCKED('+12125550123')).toBe('+12125550123 has been unblocked');
  });

  it('feature success texts (spec 001 §7)', () => {
    expect(m.ALERT_UPDATED).toBe('Alert updated successfully');
    expect(m.API_KEY_CREATED).toBe('API key created successfully');
    expect(m.API_KEY_DELETED).toBe('API key deleted successfully');
    expect(m.COLUMN_PRESET_CREATED).toBe('Column preset was successfully created');
    expect(m.COLUMN_PRESET_UPDATED).toBe('Column preset was successfully updated');
    expect(m.COLUMN_PRESET_REMOVED).toBe('Column preset was successfully removed');
    expect(m.CUSTOM_FIELD_CREATED).toBe('Custom field created successfully');
    expect(m.CUSTOM_FIELD_UPDATED).toBe('Custom field updated successfully');
    expect(m.CUSTOM_FIELD_DELETED).toBe('Custom field deleted successfully');
    expect(m.CUSTOM_FIELD_OVERRIDE_DELETED).toBe('Custom field override was deleted successfully');
  });
});

describe('designed messages keep the spec wording they were given', () => {
  it('outstanding balance starts with the spec words and includes the amount', () => {
    expect(m.OUTSTANDING_BALANCE('$12.50')).toMatch(/^Your account has an outstanding balance of \$12\.50\. /);
    expect(m.OUTSTANDING_BALANCE('$12.50')).toMatch(/update your payment info to reactivate/);
  });

  it('mention what the spec describes', () => {
    expect(m.RATE_LIMIT_WARNING).toMatch(/requests per second/);
    expect(m.RATE_LIMIT_WARNING).toMatch(/slower/);
    expect(m.PAYMENT_METHOD_SAVED).toMatch(/not be charged until the next billing cycle/);
    expect(m.PAYMENT_SAVED_STILL_PAST_DUE).toMatch(/Customer Success/);
    expect(m.CARD_PROCESSING_ISSUE).toMatch(/card issuer and try again/);
    expect(m.INVALID_CONTACT_FILE).toMatch(/name and number columns/);
    expect(m.CALLER_ID_NOT_FOUND).toMatch(/withheld or not registered in national databases/);
  });
});
