import { Button } from '@mantine/core';
import type { Ability } from '@switchboard/domain';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCan, useRole } from '../lib/access';
import { EmptyCard } from './EmptyBlock';
import { PageHeader } from './PageHeader';

/** Role labels of the refusal text (spec 000 §6 roles). */
const ROLE_NAMES: Record<string, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  billing: 'Billing',
  reporting: 'Reporting',
  user: 'User',
  deactivated: 'Deactivated',
};

/**
 * A screen that needs `ability` in the selected company (docs/permissions.md "Web"): a role without it sees the
 * screen's title and a plain explanation instead of a page whose every request would end in 403 (someone who typed
 * the address or followed an old link). While the role is unknown (a company reached since sign-in that the session
 * does not list yet) the page renders and the server decides.
 */
export function RequireAbility({ ability, title, children }: { ability: Ability; title: string; children: ReactNode }) {
  const role = useRole();
  const allowed = useCan(ability);
  if (role === null || allowed) return <>{children}</>;
  return (
    <>
      <PageHeader title={title} />
      <EmptyCard
        icon={<IconLock />}
        title="Not available with your role"
        description={`Your role in this account (${ROLE_NAMES[role] ?? role}) does not include this screen. Ask an owner or administrator of the account if you need it.`}
        action={
          <Button component={Link} to="/" variant="default">
            Go to your home screen
          </Button>
        }
      />
    </>
  );
}
