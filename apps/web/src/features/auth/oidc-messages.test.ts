/** The sign-in page's OIDC refusal texts and start URL (docs/auth.md "OIDC sign-in"). */
import { describe, expect, it } from 'vitest';
import { oidcStartUrl } from './api/oidc';
import { oidcErrorMessage } from './oidc-messages';

describe('oidcErrorMessage', () => {
  it('names the provider in the text of each code', () => {
    expect(oidcErrorMessage('unverified_email', 'Google')).toBe(
      'Google has not verified the e-mail address of this account, so it cannot be linked to a Switchboard account. Sign in with your password.',
    );
    expect(oidcErrorMessage('cancelled', 'Microsoft')).toBe('Sign-in with Microsoft was cancelled.');
    expect(oidcErrorMessage('deactivated', 'Google')).toBe('This account has been deactivated.');
  });
  it('reads an unknown code as a failure', () => {
    expect(oidcErrorMessage('bogus', 'Google')).toBe('Sign-in with Google failed. Please try again.');
  });
});

describe('oidcStartUrl', () => {
  it('carries remember and a path of this site only', () => {
    expect(oidcStartUrl('google', { remember: true, returnTo: '/numbers?x=1' })).toBe('/api/oauth/google/redirect?remember=1&return_to=%2Fnumbers%3Fx%3D1');
    expect(oidcStartUrl('microsoft', { remember: false })).toBe('/api/oauth/microsoft/redirect?remember=0');
    expect(oidcStartUrl('google', { remember: false, returnTo: '//evil.example' })).toBe('/api/oauth/google/redirect?remember=0');
    expect(oidcStartUrl('google', { remember: false, returnTo: '/\t/evil.example' })).toBe('/api/oauth/google/redirect?remember=0');
  });
});
