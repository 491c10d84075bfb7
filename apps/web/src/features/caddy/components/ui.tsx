/**
 * Small pieces the consumer screens share: the page frame (title, lead, document title), loading, error and empty
 * blocks, the auth card, and date wording in the browser's own locale and zone (a consumer has no company settings).
 */
import { Alert, Box, Button, Card, Center, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconPhonePlus } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CenteredCard } from '../../../components/CenteredCard';
import { errorText } from '../api/client';

/** The product's name in the consumer area. */
export const PRODUCT = 'Caddy';

/** Sets the document title to "`title` · Caddy" while a page is on screen. */
export function useTitle(title: string): void {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · ${PRODUCT}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/** A signed-in page: its heading (h1), an optional lead and action, then the content. */
export function CaddyPage({ title, lead, action, children }: { title: string; lead?: ReactNode; action?: ReactNode; children: ReactNode }) {
  useTitle(title);
  return (
    <Stack gap="md" maw={720} mx="auto" w="100%">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={1} size="h2">
            {title}
          </Title>
          {lead ? (
            <Text size="sm" c="dimmed">
              {lead}
            </Text>
          ) : null}
        </Stack>
        {action}
      </Group>
      {children}
    </Stack>
  );
}

/** Placeholder rows while a list loads (announced as busy). */
export function Loading({ rows = 3, height = 72, label = 'Loading' }: { rows?: number; height?: number; label?: string }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label={label} role="status" data-testid="caddy-loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="md" />
      ))}
    </Stack>
  );
}

/** A failed load: what failed, the server's message and a Retry button. */
export function LoadFailed({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title={`We could not load ${what}`} role="alert" data-testid="caddy-error">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorText(error)}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** An empty list: what is missing and the next step. */
export function Empty({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder radius="md" p="xl" data-testid="caddy-empty">
      <Stack align="center" gap="xs" ta="center">
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text size="sm" c="dimmed">
            {children}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Card>
  );
}

/** An error message under a form (announced). */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="caddy-form-error">
      {errorText(error)}
    </Alert>
  );
}

/**
 * The sign-up, sign-in and reset pages' frame: the app's centred card (components/CenteredCard.tsx, the business
 * sign-in's) with the consumer product's mark, phone-width first.
 */
export function AuthCard({ title, lead, children, footer }: { title: string; lead?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  useTitle(title);
  const brand = (
    <>
      <ThemeIcon size="lg" radius="xl" variant="filled" color="teal">
        <IconPhonePlus size={20} aria-hidden />
      </ThemeIcon>
      <Text component={Link} to="/caddy" fw={700} size="lg" c="dark">
        {PRODUCT}
      </Text>
    </>
  );
  return (
    <CenteredCard title={title} subtitle={lead} footer={footer} brand={brand}>
      {children}
    </CenteredCard>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "Dec 29, 2026" in the browser's locale and zone. */
export function formatDay(iso: string | null | undefined): string {
  return iso ? dateFormat.format(new Date(iso)) : '';
}

/** "Dec 29, 2026, 10:00 AM" in the browser's locale and zone. */
export function formatWhen(iso: string | null | undefined): string {
  return iso ? dateTimeFormat.format(new Date(iso)) : '';
}

/** Whole days from now until `iso` (0 once passed), as the server counts them (`GET /caddy/inactivity`). */
export function daysLeft(iso: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / (24 * 3600 * 1000)));
}

/** "30 days left", "1 day left", "removed today". */
export function daysLeftText(days: number): string {
  if (days <= 0) return 'removed today';
  return `${days} day${days === 1 ? '' : 's'} left`;
}
