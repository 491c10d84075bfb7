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
import { IconAdjustments, IconBuildingCommunity, IconHistory, IconKey, IconTag, IconUserShield, IconWebhook } from '@tabler/icons-react';
import { IconBell, IconBroadcast, IconChartBar, IconReportAnalytics, IconRoute } from '@tabler/icons-react';
import { IconBuildingStore, IconCreditCard, IconFileSearch, IconPrinter, IconShieldCheck } from '@tabler/icons-react';
import { IconCategory, IconLifebuoy, IconPalette, IconPlugConnected } from '@tabler/icons-react';
import type { Ability } from '@switchboard/domain';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { can } from '../../lib/access';
import { useSession } from '../../lib/session';
import { InboxUnreadBadge } from '../../features/inbox/components/InboxUnreadBadge';

/**
 * A navigation entry: `can` is the ability the screen needs (docs/permissions.md); without one
 * (the person's own settings) every signed-in person sees it. The server enforces the same
 * matrix; hiding only spares people screens that would refuse them. Decisions for screens whose
 * routes are open to any signed-in person: Organizations is shown to those who manage the users of
 * the selected account (`users.manage`: owners, administrators, org administrators), API keys to
 * those who manage its integrations (`integrations.manage`), so a `user`, `reporting` or `billing`
 * member has no Administration section.
 */
type NavItem = { to: string; label: string; icon: typeof IconMessages; can?: Ability };

const SECTIONS: Array<{ title: string; items: NavItem[] }> = [
  {
    title: 'Conversations',
    items: [
      { to: '/inbox', label: 'Inbox', icon: IconMessages, can: 'inbox.read' },
      { to: '/activity', label: 'Activity', icon: IconActivity, can: 'reports.read' },
      { to: '/voicemail', label: 'Voicemail', icon: IconPhoneIncoming, can: 'calls.read' },
      { to: '/fax', label: 'Faxes', icon: IconPrinter, can: 'inbox.read' },
    ],
  },
  {
    title: 'Insights',
    items: [
      { to: '/dashboard', label: 'Dashboard', icon: IconChartBar, can: 'reports.read' },
      { to: '/reports', label: 'Call reports', icon: IconReportAnalytics, can: 'reports.read' },
      { to: '/calls/search', label: 'Transcript search', icon: IconFileSearch, can: 'calls.read' },
      { to: '/alerts', label: 'Alerts', icon: IconBell, can: 'alerts.read' },
    ],
  },
  {
    title: 'Call tracking',
    items: [
      { to: '/tracking', label: 'Tracking pools', icon: IconRoute, can: 'tracking.read' },
      { to: '/tracking/feed', label: 'Real-time feed', icon: IconBroadcast, can: 'reports.read' },
    ],
  },
  {
    title: 'Audience',
    items: [
      { to: '/contacts', label: 'Contacts', icon: IconAddressBook, can: 'contacts.read' },
      { to: '/groups', label: 'Groups', icon: IconUsersGroup, can: 'contacts.read' },
      { to: '/campaigns', label: 'Campaigns', icon: IconSpeakerphone, can: 'campaigns.read' },
    ],
  },
  {
    title: 'Phone system',
    items: [
      { to: '/numbers', label: 'Numbers', icon: IconHash, can: 'numbers.read' },
      { to: '/schedule', label: 'Schedule', icon: IconCalendarTime, can: 'numbers.read' },
      { to: '/greetings', label: 'Greetings', icon: IconMicrophone, can: 'numbers.read' },
      { to: '/blocks', label: 'Blocked callers', icon: IconBan, can: 'calls.read' },
      { to: '/number-templates', label: 'Number templates', icon: IconTemplate, can: 'numbers.read' },
      { to: '/ports', label: 'Port requests', icon: IconArrowsTransferDown, can: 'numbers.read' },
      { to: '/marketplace', label: 'Marketplace', icon: IconBuildingStore, can: 'numbers.read' },
    ],
  },
  {
    title: 'Workspace',
    items: [
      { to: '/custom-fields', label: 'Custom fields', icon: IconForms, can: 'settings.manage' },
      { to: '/simulator', label: 'Phone simulator', icon: IconDeviceMobile, can: 'numbers.read' },
      // Tags are everyday work (anyone who works calls tags them), not administration.
      { to: '/tags', label: 'Tags', icon: IconTag, can: 'calls.work' },
      { to: '/settings', label: 'Settings', icon: IconSettings },
      { to: '/support', label: 'Support', icon: IconLifebuoy, can: 'support.contact' },
    ],
  },
  {
    title: 'Administration',
    items: [
      { to: '/users', label: 'Users', icon: IconUserShield, can: 'users.read' },
      { to: '/organizations', label: 'Organizations', icon: IconBuildingCommunity, can: 'users.manage' },
      { to: '/general-settings', label: 'General settings', icon: IconAdjustments, can: 'settings.manage' },
      { to: '/data-groups', label: 'Data groups', icon: IconCategory, can: 'settings.manage' },
      { to: '/tenant', label: 'Tenant settings', icon: IconPalette, can: 'settings.manage' },
      { to: '/integrations', label: 'Integrations', icon: IconPlugConnected, can: 'integrations.manage' },
      { to: '/api-keys', label: 'API keys', icon: IconKey, can: 'integrations.manage' },
      { to: '/webhooks', label: 'Webhooks', icon: IconWebhook, can: 'integrations.manage' },
      { to: '/audit-log', label: 'Audit log', icon: IconHistory, can: 'audit.read' },
      { to: '/billing', label: 'Billing', icon: IconCreditCard, can: 'billing.read' },
      { to: '/sms-verification', label: 'SMS verification', icon: IconShieldCheck, can: 'settings.manage' },
    ],
  },
];

/** The main navigation, grouped by what people come to do; only what the role in the selected company may use. */
/** The navigation sections the person may use in the selected company (empty sections dropped). */
export function allowedSections(session: Parameters<typeof can>[0]) {
  return SECTIONS.map((section) => ({ ...section, items: section.items.filter((item) => !item.can || can(session, item.can)) })).filter(
    (section) => section.items.length > 0,
  );
}

/** The first screen of the navigation the person may use (the app's home: /inbox for most roles, /dashboard for reporting). */
export function homePath(session: Parameters<typeof can>[0]): string {
  return allowedSections(session)[0]?.items[0]?.to ?? '/settings';
}

export function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const session = useSession();
  const sections = allowedSections(session);
  // The most specific item that matches is the active one (/tracking/feed, not also /tracking).
  const activeTo = sections
    .flatMap((section) => section.items.map((item) => item.to))
    .filter((to) => pathname === to || pathname.startsWith(`${to}/`))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <Stack gap={2} component="nav" aria-label="Main">
      {sections.map((section, i) => (
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
              active={to === activeTo}
              onClick={onNavigate}
              style={{ borderRadius: 8 }}
            />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
