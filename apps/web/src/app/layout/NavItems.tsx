import { NavLink, Stack, Text } from '@mantine/core';
import {
  IconActivity,
  IconAddressBook,
  IconDeviceMobile,
  IconForms,
  IconHash,
  IconMessages,
  IconSettings,
  IconSpeakerphone,
  IconUsersGroup,
} from '@tabler/icons-react';
import { IconArrowsTransferDown, IconBan, IconCalendarTime, IconMicrophone, IconTemplate, IconPhoneIncoming } from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { InboxUnreadBadge } from '../../features/inbox/components/InboxUnreadBadge';

const SECTIONS = [
  {
    title: 'Conversations',
    items: [
      { to: '/inbox', label: 'Inbox', icon: IconMessages },
      { to: '/activity', label: 'Activity', icon: IconActivity },
      { to: '/voicemail', label: 'Voicemail', icon: IconPhoneIncoming },
    ],
  },
  {
    title: 'Audience',
    items: [
      { to: '/contacts', label: 'Contacts', icon: IconAddressBook },
      { to: '/groups', label: 'Groups', icon: IconUsersGroup },
      { to: '/campaigns', label: 'Campaigns', icon: IconSpeakerphone },
    ],
  },
  {
    title: 'Phone system',
    items: [
      { to: '/numbers', label: 'Numbers', icon: IconHash },
      { to: '/schedule', label: 'Schedule', icon: IconCalendarTime },
      { to: '/greetings', label: 'Greetings', icon: IconMicrophone },
      { to: '/blocks', label: 'Blocked callers', icon: IconBan },
      { to: '/number-templates', label: 'Number templates', icon: IconTemplate },
      { to: '/ports', label: 'Port requests', icon: IconArrowsTransferDown },
    ],
  },
  {
    title: 'Workspace',
    items: [
      { to: '/custom-fields', label: 'Custom fields', icon: IconForms },
      { to: '/simulator', label: 'Phone simulator', icon: IconDeviceMobile },
      { to: '/settings', label: 'Settings', icon: IconSettings },
    ],
  },
];

/** The main navigation, grouped by what people come to do. */
export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2} component="nav" aria-label="Main">
      {SECTIONS.map((section, i) => (
        <Stack key={section.title} gap={2} mt={i === 0 ? 0 : 'sm'}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" mb={2}>
            {section.title}
          </Text>
          {section.items.map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              component={RouterNavLink}
              to={to}
              label={label}
              leftSection={<Icon size={18} />}
              rightSection={to === '/inbox' ? <InboxUnreadBadge /> : undefined}
              active={pathname === to || pathname.startsWith(`${to}/`)}
              onClick={onNavigate}
              style={{ borderRadius: 8 }}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
