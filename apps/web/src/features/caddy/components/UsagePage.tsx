/**
 * `/caddy/usage`: this month's usage against the plan (docs/consumer-area.md "Usage and plan limits"), live from the
 * live connection the shell keeps open (api/live.ts `useCaddyLive`), with a bar per limit (minutes, texts, active
 * numbers; the fair-use ceiling for plans without a monthly cap), and the plan and subscription state with what each
 * plan includes.
 */
import { Alert, Badge, Button, Card, Group, NativeSelect, Progress, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { CADDY_FAIR_USE, CADDY_PAID_PLANS, CADDY_PLAN_LIMITS, type CaddyPlan, type CaddySubscriptionStatus } from '@switchboard/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useCaddyProfile, useCaddyUsage, useSandboxStore, useSandboxStoreAvailable, type CaddyProfile, type CaddyUsage } from '../api/account';
import { CaddyPage, FormError, formatDay, LoadFailed, Loading } from './ui';

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

const number = new Intl.NumberFormat();

/** One usage bar: used against the limit (or the fair-use ceiling when the plan has no cap). */
function UsageBar({
  label,
  used,
  limit,
  fairUse,
  detail,
  over,
  warnAt = 80,
}: {
  label: string;
  used: number;
  limit: number | null;
  fairUse?: number;
  detail?: string;
  /** The server says this limit is reached (`overLimit`). */
  over: boolean;
  /** Percent from which the bar turns orange (numbers: never, holding the plan's numbers is normal). */
  warnAt?: number;
}) {
  const cap = limit ?? fairUse ?? null;
  const percent = cap ? Math.min(100, (used / cap) * 100) : 0;
  const color = over ? 'red' : percent >= warnAt ? 'orange' : 'teal';
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
        <UsageBar
          label="Minutes"
          used={usage.minutesUsed}
          limit={usage.minutesLimit}
          fairUse={CADDY_FAIR_USE.minutes}
          over={usage.overLimit.includes('minutes')}
        />
        <UsageBar
          label="Texts"
          used={usage.textsUsed}
          limit={usage.textsLimit}
          fairUse={CADDY_FAIR_USE.texts}
          over={usage.overLimit.includes('texts')}
          detail={`${number.format(usage.textsIn)} received, ${number.format(usage.textsOut)} sent`}
        />
        <UsageBar label="Active numbers" used={usage.numbersUsed} limit={usage.numbersLimit} over={usage.overLimit.includes('numbers')} warnAt={101} />
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

/** The offline test store (sandbox servers only): subscribe to a plan and cancel, as the stores would. */
function TestStore({ current }: { current: CaddyProfile }) {
  const available = useSandboxStoreAvailable();
  const { subscribe, cancel } = useSandboxStore();
  const [plan, setPlan] = useState<string>('premium_monthly');
  const [store, setStore] = useState<'apple' | 'google'>('apple');
  if (!available.data) return null;
  const subscribed = current.subscriptionStatus === 'active' || current.subscriptionStatus === 'retry_period';
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="caddy-test-store-title" data-testid="caddy-test-store">
      <Stack gap="xs">
        <Text fw={600} component="h2" size="md" m={0} id="caddy-test-store-title">
          Test store
        </Text>
        <Text size="sm" c="dimmed">
          This server uses the offline test store: subscribe and cancel here as you would in the App Store or Google Play. Nothing is charged.
        </Text>
        <SegmentedControl
          value={store}
          onChange={(v) => setStore(v as 'apple' | 'google')}
          data={[
            { value: 'apple', label: 'App Store' },
            { value: 'google', label: 'Google Play' },
          ]}
          aria-label="Store"
        />
        <NativeSelect
          label="Plan"
          value={plan}
          onChange={(e) => setPlan(e.currentTarget.value)}
          data={CADDY_PAID_PLANS.filter((p) => p !== 'unlimited').map((p) => ({ value: p, label: CADDY_PLAN_LIMITS[p].label }))}
        />
        <FormError error={subscribe.error ?? cancel.error} />
        <Group gap="sm" grow>
          <Button onClick={() => subscribe.mutate({ store, plan }, { onSuccess: (r) => notify.success(r.message) })} loading={subscribe.isPending}>
            Subscribe
          </Button>
          <Button
            variant="default"
            onClick={() => cancel.mutate(undefined, { onSuccess: (r) => notify.success(r.message) })}
            loading={cancel.isPending}
            disabled={!subscribed}
          >
            Cancel subscription
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The plans people can be on, monthly and yearly together (CADDY_PLAN_LIMITS; the legacy `unlimited` is not offered). */
const PLAN_FAMILIES: Array<{ name: string; plans: CaddyPlan[]; billing: string }> = [
  { name: 'Starter', plans: ['starter'], billing: 'Free' },
  { name: 'Unlimited', plans: ['unlimited_monthly', 'unlimited_yearly', 'unlimited'], billing: 'Monthly or yearly' },
  { name: 'Premium', plans: ['premium_monthly', 'premium_yearly'], billing: 'Monthly or yearly' },
  { name: 'Deluxe', plans: ['deluxe_monthly', 'deluxe_yearly'], billing: 'Monthly or yearly' },
];

/** What each plan includes (CADDY_PLAN_LIMITS), the person's own marked. */
function PlansTable({ current }: { current: CaddyPlan | undefined }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="caddy-plans-title">
      <Text fw={600} component="h2" size="md" m={0} id="caddy-plans-title">
        What each plan includes
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {PLAN_FAMILIES.map((f) => {
          const l = CADDY_PLAN_LIMITS[f.plans[0]!];
          const mine = current !== undefined && f.plans.includes(current);
          return (
            <Card
              component="li"
              key={f.name}
              withBorder
              radius="md"
              padding="sm"
              style={mine ? { borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 } : undefined}
            >
              <Stack gap={4}>
                <Group justify="space-between" gap={4} wrap="nowrap">
                  <Text fw={700}>{f.name}</Text>
                  {mine ? (
                    <Badge size="xs" color="teal">
                      Yours
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm">
                  {l.numbers} active number{l.numbers === 1 ? '' : 's'}
                </Text>
                <Text size="sm">
                  {l.minutes === null ? 'Unlimited minutes and texts*' : `${number.format(l.minutes)} minutes, ${number.format(l.texts ?? 0)} texts a month`}
                </Text>
                <Text size="xs" c="dimmed">
                  {f.billing}
                </Text>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        * Fair use: {number.format(CADDY_FAIR_USE.minutes)} minutes and {number.format(CADDY_FAIR_USE.texts)} texts a month. Subscriptions are bought in the
        Caddy app on iPhone or Android and managed in the App Store or Google Play.
      </Text>
    </Stack>
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
      {profile.data ? <TestStore current={profile.data} /> : null}
      <PlansTable current={profile.data?.plan} />
    </CaddyPage>
  );
}
