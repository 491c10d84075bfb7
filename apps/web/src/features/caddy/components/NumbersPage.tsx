/**
 * `/caddy/numbers`: the person's numbers with their state and removal dates (docs/consumer-area.md "Numbers").
 * Activation is optimistic (api/numbers.ts `useActivateNumbers`, rolled back with the server's message on failure);
 * making a number inactive, swapping the active number at the plan's limit, replacing and removing are confirmed first
 * (each starts or brings forward a removal). An inactive number can be made active again (reclaimed) until its date.
 */
import { ActionIcon, Alert, Badge, Button, Card, Group, Menu, Modal, Radio, Stack, Switch, Text } from '@mantine/core';
import { CADDY_PLAN_LIMITS, CADDY_REMOVAL_DAYS } from '@switchboard/contracts';
import { IconAlertTriangle, IconDots, IconMessage, IconPhonePlus, IconReplace, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { notify } from '../../../lib/notify';
import { useCaddyProfile } from '../api/account';
import { errorText } from '../api/client';
import { useActivateNumbers, useCaddyNumbers, useInactivity, useRemoveNumber, type CaddyNumber } from '../api/numbers';
import { CaddyPage, daysLeft, daysLeftText, Empty, formatDay, LoadFailed, Loading } from './ui';

const DAY_MS = 24 * 3600 * 1000;

/** What a pending change is, for its confirmation. */
type Pending =
  | { kind: 'deactivate'; number: CaddyNumber }
  | { kind: 'swap'; number: CaddyNumber; active: CaddyNumber[] }
  | { kind: 'remove'; number: CaddyNumber }
  | { kind: 'replace'; number: CaddyNumber };

function removalDate(): string {
  return formatDay(new Date(Date.now() + CADDY_REMOVAL_DAYS * DAY_MS).toISOString());
}

/** One number: its state, the active switch and its actions. */
function NumberCard({
  n,
  onlyActive,
  onToggle,
  onAsk,
}: {
  n: CaddyNumber;
  onlyActive: boolean;
  onToggle: (n: CaddyNumber, on: boolean) => void;
  onAsk: (p: Pending) => void;
}) {
  const left = n.willBeRemovedAt ? daysLeft(n.willBeRemovedAt) : null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="caddy-number" aria-label={n.nationalNumber} component="article">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={700} size="lg" component="h2" m={0}>
              {n.nationalNumber}
            </Text>
            {n.isActive ? (
              <Badge color="teal" variant="light" w="fit-content" data-testid="caddy-number-state">
                Active
              </Badge>
            ) : (
              <Group gap={6}>
                <Badge color={left !== null && left <= 7 ? 'red' : 'yellow'} variant="light" data-testid="caddy-number-state">
                  Inactive
                </Badge>
                {n.willBeRemovedAt ? (
                  <Text size="sm" c="dimmed" data-testid="caddy-removal">
                    Removed on {formatDay(n.willBeRemovedAt)} · {daysLeftText(left ?? 0)}
                  </Text>
                ) : null}
              </Group>
            )}
          </Stack>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`More actions for ${n.nationalNumber}`}>
                <IconDots size={20} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconReplace size={16} aria-hidden />} onClick={() => onAsk({ kind: 'replace', number: n })}>
                Replace with another number
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => onAsk({ kind: 'remove', number: n })}>
                Remove now
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Switch
          checked={n.isActive}
          onChange={(e) => onToggle(n, e.currentTarget.checked)}
          disabled={n.isActive && onlyActive}
          label={n.isActive ? 'Keep active' : 'Make active'}
          aria-label={`${n.isActive ? 'Keep active' : 'Make active'}: ${n.nationalNumber}`}
          description={n.isActive && onlyActive ? 'Your only active number stays active. Make another number active first.' : undefined}
          color="teal"
        />
        <Button component={Link} to={`/caddy/numbers/${n.id}`} variant="light" fullWidth leftSection={<IconMessage size={16} aria-hidden />}>
          Calls and texts
        </Button>
      </Stack>
    </Card>
  );
}

/** The numbers page. */
export function NumbersPage() {
  const numbers = useCaddyNumbers();
  const inactivity = useInactivity();
  const profile = useCaddyProfile();
  const activate = useActivateNumbers();
  const remove = useRemoveNumber();
  const navigate = useNavigate();
  const location = useLocation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [swapOut, setSwapOut] = useState<string | null>(null);
  const plan = profile.data ? CADDY_PLAN_LIMITS[profile.data.plan] : null;
  const list = numbers.data ?? [];
  const active = list.filter((n) => n.isActive);

  const apply = (ids: number[], done: string) => {
    setPending(null);
    activate.mutate(ids, {
      onSuccess: () => notify.success(done),
      onError: (error) => notify.show({ type: 'danger', title: 'Not changed', message: errorText(error), autoClose: 10_000 }),
    });
  };

  const toggle = (n: CaddyNumber, on: boolean) => {
    if (!on) return setPending({ kind: 'deactivate', number: n });
    const limit = plan?.numbers ?? 1;
    if (active.length < limit) return apply([...active.map((a) => a.id), n.id], `${n.nationalNumber} is active.`);
    setSwapOut(active.length === 1 ? String(active[0]!.id) : null);
    setPending({ kind: 'swap', number: n, active });
  };

  const confirm = () => {
    if (!pending) return;
    if (pending.kind === 'deactivate') {
      apply(
        active.filter((a) => a.id !== pending.number.id).map((a) => a.id),
        `${pending.number.nationalNumber} is inactive.`,
      );
    } else if (pending.kind === 'swap') {
      if (!swapOut) return;
      apply([...active.filter((a) => String(a.id) !== swapOut).map((a) => a.id), pending.number.id], `${pending.number.nationalNumber} is active.`);
    } else if (pending.kind === 'replace') {
      setPending(null);
      void navigate(`/caddy/catalog?replace=${pending.number.id}`);
    } else {
      remove.mutate(pending.number.id, {
        onSuccess: (r) => {
          setPending(null);
          notify.success(r.message);
        },
        onError: (error) => notify.show({ type: 'danger', message: errorText(error), autoClose: 10_000 }),
      });
    }
  };

  const welcome = (location.state as { added?: string } | null)?.added;
  const soon = (inactivity.data ?? []).filter((x) => x.daysLeft <= 7);

  return (
    <CaddyPage
      title="My numbers"
      lead={plan ? `${plan.label} plan: ${active.length} of ${plan.numbers} active number${plan.numbers === 1 ? '' : 's'}` : undefined}
      action={
        list.length ? (
          <Button component={Link} to="/caddy/catalog" leftSection={<IconPhonePlus size={16} aria-hidden />} size="sm" visibleFrom="xs">
            Get a number
          </Button>
        ) : undefined
      }
    >
      {welcome ? (
        <Alert color="teal" data-testid="caddy-added">
          {welcome} is yours. Calls and texts to it reach you here.
        </Alert>
      ) : null}
      {soon.length ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Numbers about to be removed" data-testid="caddy-inactivity">
          {soon.map((x) => (
            <Text size="sm" key={x.id}>
              {x.number}: removed on {formatDay(x.willBeRemovedAt)} ({daysLeftText(x.daysLeft)}). Make it active to keep it.
            </Text>
          ))}
        </Alert>
      ) : null}
      {numbers.isPending ? (
        <Loading label="Loading your numbers" />
      ) : numbers.isError ? (
        <LoadFailed what="your numbers" error={numbers.error} onRetry={() => void numbers.refetch()} />
      ) : list.length === 0 ? (
        <Empty
          title="You have no number yet"
          action={
            <Button component={Link} to="/caddy/catalog" leftSection={<IconPhonePlus size={16} aria-hidden />}>
              Pick your number
            </Button>
          }
        >
          Choose a number in the area code you like. Calls and texts to it reach you in this app.
        </Empty>
      ) : (
        <Stack gap="sm">
          {list.map((n) => (
            <NumberCard key={n.id} n={n} onlyActive={active.length <= 1} onToggle={toggle} onAsk={setPending} />
          ))}
          <Text size="xs" c="dimmed">
            An inactive number is kept for {CADDY_REMOVAL_DAYS} days, then released. Make it active again before then to keep it. We remind you 7 days and 1 day
            before.
          </Text>
        </Stack>
      )}

      <ConfirmModal
        opened={pending?.kind === 'deactivate'}
        title="Make this number inactive?"
        confirmLabel="Make inactive"
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending?.kind === 'deactivate'
          ? `${pending.number.nationalNumber} stops taking calls and texts and will be removed on ${pending.number.willBeRemovedAt ? formatDay(pending.number.willBeRemovedAt) : removalDate()} unless you make it active again.`
          : ''}
      </ConfirmModal>
      <Modal opened={pending?.kind === 'swap'} onClose={() => setPending(null)} title="Make this number active?">
        {pending?.kind === 'swap' ? (
          <Stack gap="sm">
            <Text size="sm">
              Your {plan?.label ?? ''} plan includes {plan?.numbers ?? 1} active number{(plan?.numbers ?? 1) === 1 ? '' : 's'}. To make{' '}
              {pending.number.nationalNumber} active, another number becomes inactive and will be removed on {removalDate()} unless you make it active again.
            </Text>
            {pending.active.length > 1 ? (
              <Radio.Group label="Number to make inactive" value={swapOut} onChange={setSwapOut}>
                <Stack gap={4} mt={4}>
                  {pending.active.map((a) => (
                    <Radio key={a.id} value={String(a.id)} label={a.nationalNumber} />
                  ))}
                </Stack>
              </Radio.Group>
            ) : (
              <Text size="sm" fw={600}>
                {pending.active[0]?.nationalNumber} becomes inactive.
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button color="red" onClick={confirm} disabled={!swapOut}>
                Switch numbers
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      <ConfirmModal
        opened={pending?.kind === 'remove'}
        title="Remove this number now?"
        confirmLabel="Remove number"
        loading={remove.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending?.kind === 'remove' ? `${pending.number.nationalNumber} is released now. Its calls and texts stop, and you cannot get this number back.` : ''}
      </ConfirmModal>
      <ConfirmModal
        opened={pending?.kind === 'replace'}
        title="Replace this number?"
        confirmLabel="Choose a new number"
        danger={false}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending?.kind === 'replace'
          ? `Pick a new number in the catalogue. When you confirm there, ${pending.number.nationalNumber} is released and the new number takes its place.`
          : ''}
      </ConfirmModal>
    </CaddyPage>
  );
}
