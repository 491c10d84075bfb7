import type { ReactNode } from 'react';

/**
 * A read-only view of a form for a role that may see but not change it (docs/permissions.md "Web"): when `when`, every
 * native control inside (inputs, Mantine buttons, switches, selects) is disabled by one disabled fieldset, so nothing
 * can be sent that the server would refuse with a 403. `when` false renders the children as they are.
 */
export function ReadOnly({ when, children }: { when: boolean; children: ReactNode }) {
  if (!when) return <>{children}</>;
  return (
    <fieldset disabled data-readonly style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {children}
    </fieldset>
  );
}
