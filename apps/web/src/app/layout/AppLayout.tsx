import { AppShell, Burger, Button, Group, ScrollArea, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout, IconPhoneCall } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { CompanySwitcher } from '../../features/companies/components/CompanySwitcher';
import { useSignOut } from '../../features/auth/hooks/use-sign-out';
import { NavItems } from './NavItems';
import { UserMenu } from './UserMenu';
import { Softphone } from '../../features/softphone/components/Softphone';

/** The signed-in shell: header with the company switcher and account menu, side navigation, page. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { signOut, pending } = useSignOut();
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to="/inbox" style={{ textDecoration: 'none', color: 'inherit' }}>
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
          <Group gap="sm" wrap="nowrap">
            <Softphone />
            <CompanySwitcher />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea} type="scroll">
          <NavItems onNavigate={close} />
        </AppShell.Section>
        <AppShell.Section>
          <Button variant="subtle" color="gray" fullWidth justify="flex-start" leftSection={<IconLogout size={18} />} onClick={signOut} loading={pending}>
            Sign out
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
