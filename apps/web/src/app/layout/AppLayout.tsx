import { AppShell, Burger, Button, Group, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconLogout, IconPhoneCall } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { CompanySwitcher } from '../../features/companies/components/CompanySwitcher';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { NavItems } from './NavItems';
import { UserMenu } from './UserMenu';
import { Softphone } from '../../features/softphone/components/Softphone';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/SkipLink';
import { AdminModeBanner } from '../../features/auth/components/AdminModeBanner';
import { PastDueBanner } from '../../features/billing/components/PastDueBanner';
import { useDateDisplaySync } from '../../lib/dates';

/**
 * The signed-in shell: header with the softphone, company switcher and account menu, side
 * navigation, page. On phone-sized screens (below `sm`) the company switcher moves into the
 * navigation drawer so the header keeps the avatar on screen, the page padding shrinks, and the
 * navigation scrolls above a fixed Sign out.
 */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { signOut, pending } = useSignOut();
  const small = useMediaQuery('(max-width: 48em)');
  // Dates in the company's zone and General settings; the page re-renders when they change (lib/dates.ts).
  useDateDisplaySync();
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding={{ base: 'sm', sm: 'lg' }}>
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to="/inbox" aria-label="Switchboard" style={{ textDecoration: 'none', color: 'inherit' }}>
              <Group gap={8} wrap="nowrap">
                <ThemeIcon radius="md" size="md">
                  <IconPhoneCall size={16} />
                </ThemeIcon>
                <Text fw={700} visibleFrom="xs">
                  Switchboard
                </Text>
              </Group>
            </Link>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Softphone compact={small} />
            {small ? null : <CompanySwitcher />}
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        {small ? (
          <AppShell.Section mb="sm">
            <CompanySwitcher />
          </AppShell.Section>
        ) : null}
        <AppShell.Section grow style={{ minHeight: 0, overflowY: 'auto' }} data-testid="nav-scroll">
          <NavItems onNavigate={close} />
        </AppShell.Section>
        <AppShell.Section pt="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Button variant="subtle" color="gray" fullWidth justify="flex-start" leftSection={<IconLogout size={18} />} onClick={signOut} loading={pending}>
            Sign out
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} bg="var(--mantine-color-gray-0)">
        <AdminModeBanner />
        <PastDueBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
