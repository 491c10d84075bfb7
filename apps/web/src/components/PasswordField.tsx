import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * A password input whose show/hide toggle is not named after the field, so the field alone answers
 * to its label (accessible-name lookups such as "Password" find exactly one control).
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }} {...props} />;
}
