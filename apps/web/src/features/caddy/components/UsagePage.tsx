/**
 * `/caddy/usage`: this month's usage against the plan (docs/consumer-area.md "Usage and plan limits"), live from the
 * usage stream the shell keeps open (api/account.ts `useUsageStream`), with a bar per limit (minutes, texts, active
 * numbers; the fair-use ceiling for plans without a monthly cap), and the plan and subscription state with what each
 * plan includes.
 */
import { Alert, Badge, Card, Group, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { CADDY_FAIR_USE, CADDY_PLAN_LIMITS, CADDY_PLANS, type CaddyPlan, type CaddySubscriptionStatus } from '@switchboard/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useCaddyProfile, useCaddyUsage, type CaddyUsage } from '../api/account';
import { CaddyPage, formatDay, LoadFailed, Loading } from './ui';

/** What each subscription status means to the person. */
const STATUS: Record<CaddySubscriptionStatus, { label: string; color: string; text: string }> = {
  active: { label: 'Active', color: 'teal', text: 'Your subscription renews automatically.' },
  canceling: { label: 'Canceling', color: 'yellow', text: 'Your subscription will not renew. You keep your plan until it ends.' },
  retry_period: {
    label: 'Payment problem',
    color: 'orange',
    text: 'The store could not renew your subscription. Update your payment method in the App Store or Google Play to keep your plan.',
  },
  refunding: { label: 'Refund under review', color: 'grape', text: 'The store is reviewing a refund request for your subscription.' },
  expired: { label: 'Expired', color: 'red', text: 'Your subscription ended. Your numbers will be removed 30 days after it ended unless you subscribe again.' },
  not_subscribed: { label: 'Not subscribed', color: 'gray', text: 'You are on the free Starter plan. Subscribe in the Caddy app on your phone for more.' },
};

const PAID_PLANS: CaddyPlan[] = CADDY_PLANS.filter((p) => p !== 'unlimited');
const number = new Intl.NumberFormat();

/** One usage bar: used against the limit (or the fair-use ceiling when the plan has no cap). */
function UsageBar({ label, used, limit, fairUse, detail }: { label: string; used: number; limit: number | null; fairUse?: number; detail?: string }) {
  const cap = limit ?? fairUse ?? null;
  const percent = cap ? Math.min(100, (used / cap) * 100) : 0;
  const over = cap !== null && used >= cap;
  const color = over ? 'red' : percent >= 80 ? 'orange' : 'teal';
  const shown = Number.isInteger(used) ? number.format(used) : number.format(Math.round(used * 10) / 10);
  const of = limit !== null ? `${shown} of ${number.format(limit)}` : `${shown} (unlimited, fair use ${number.format(fairUse ?? 0)})`;
  return (
    <Card withBorder radius="md" padding="md" data-testid={`caddy-usage-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600}>{label}</Text>
          <Text size="sm" fw={600} data-testid="caddy-usage-value">
            {of}
          </Text>
        </Group>
        <Progress value={percent} color={color} size="lg" radius="xl" aria-label={`${label}: ${of}`} />
        {detail ? (
          <Text size="xs" c="dimmed">
            {detail}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

function monthOf(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y!, (m ?? 1) - 1, 1)));
}

function UsageBars({ usage }: { usage: CaddyUsage }) {
  return (
    <Stack gap="sm" aria-live="polite" data-testid="caddy-usage">
      <Text size="sm" c="dimmed">
        {monthOf(usage.period)}
      </Text>
      {usage.overLimit.length ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="You have reached your plan's limit" data-testid="caddy-over-limit">
          {usage.overLimit.includes('texts')
            ? 'You cannot send more texts this month. Texts sent to you still arrive. '
            : usage.overLimit.includes('minutes')
              ? 'You have used your minutes this month. Calls to you still arrive. '
              : ''}
          Upgrade your plan in the Caddy app on your phone for more.
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <UsageBar label="Minutes" used={usage.minutesUsed} limit={usage.minutesLimit} fairUse={CADDY_FAIR_USE.minutes} />
        <UsageBar
          label="Texts"
          used={usage.textsUsed}
          limit={usage.textsLimit}
          fairUse={CADDY_FAIR_USE.texts}
          detail={`${number.format(usage.textsIn)} received, ${number.format(usage.textsOut)} sent`}
        />
        <UsageBar label="Active numbers" used={usage.numbersUsed} limit={usage.numbersLimit} />
      </SimpleGrid>
    </Stack>
  );
}

/** The plan and subscription card. */
function PlanCard() {
  const profile = useCaddyProfile();
  if (profile.isPending) return <Loading rows={1} height={120} label="Loading your plan" />;
  if (profile.isError) return <LoadFailed what="your plan" error={profile.error} onRetry={() => void profile.refetch()} />;
  const p = profile.data;
  const status = STATUS[p.subscriptionStatus];
  return (
    <Card withBorder radius="md" padding="md" data-testid="caddy-plan">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} size="lg" component="h2" m={0}>
            {p.planLabel}
          </Text>
          <Badge color={status.color} variant="light" data-testid="caddy-subscription-status">
            {status.label}
          </Badge>
        </Group>
        <Text size="sm">{status.text}</Text>
        {p.subscriptionExpiresAt ? (
          <Text size="sm" c="dimmed">
            {p.subscriptionStatus === 'active' ? 'Renews on' : 'Ends on'} {formatDay(p.subscriptionExpiresAt)}
            {p.subscriptionStore ? ` · ${p.subscriptionStore === 'apple' ? 'App Store' : p.subscriptionStore === 'google' ? 'Google Play' : 'Test store'}` : ''}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** What each plan includes (CADDY_PLAN_LIMITS). */
function PlansTable({ current }: { current: CaddyPlan | undefined }) {
  const cell = (v: number | null) => (v === null ? 'Unlimited*' : number.format(v));
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="caddy-plans-title">
      <Stack gap="xs">
        <Text fw={600} component="h2" size="md" m={0} id="caddy-plans-title">
          What each plan includes
        </Text>
        <Table.ScrollContainer minWidth={320}>
          <Table striped fz="sm" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Plan</Table.Th>
                <Table.Th scope="col">Numbers</Table.Th>
                <Table.Th scope="col">Minutes</Table.Th>
                <Table.Th scope="col">Texts</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(['starter', ...PAID_PLANS.filter((p) => p !== 'starter')] as CaddyPlan[]).map((p) => {
                const l = CADDY_PLAN_LIMITS[p];
                return (
                  <Table.Tr key={p} fw={p === current ? 700 : undefined} aria-current={p === current ? 'true' : undefined}>
                    <Table.Th scope="row" fw="inherit">
                      {l.label}
                      {p === current ? ' (yours)' : ''}
                    </Table.Th>
                    <Table.Td>{l.numbers}</Table.Td>
                    <Table.Td>{cell(l.minutes)}</Table.Td>
                    <Table.Td>{cell(l.texts)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed">
          * Fair use: {number.format(CADDY_FAIR_USE.minutes)} minutes and {number.format(CADDY_FAIR_USE.texts)} texts a month. Subscriptions are bought in the
          Caddy app on iPhone or Android and managed in the App Store or Google Play.
        </Text>
      </Stack>
    </Card>
  );
}

/** The usage and plan page. */
export function UsagePage() {
  const usage = useCaddyUsage();
  const profile = useCaddyProfile();
  return (
    <CaddyPage title="Usage and plan" lead="Updated live as you call and text.">
      {usage.isPending ? (
        <Loading rows={3} height={80} label="Loading your usage" />
      ) : usage.isError ? (
        <LoadFailed what="your usage" error={usage.error} onRetry={() => void usage.refetch()} />
      ) : (
        <UsageBars usage={usage.data} />
      )}
      <PlanCard />
      <PlansTable current={profile.data?.plan} />
    </CaddyPage>
  );
}
