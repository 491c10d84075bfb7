/**
 * The Billing page (spec 001 "Company billing"; spec 002 "Subscription", "invoices with PDF download";
 * docs/billing.md "Screens"): the plan and its period, usage of the period with a chart (live), the card and billing
 * address, invoices with their PDF, a plan change with its proration preview (or at period end: the subscription
 * update), cancel with a downsell offer, yearly upgrade offers, the invoice e-mails (customer update), the add-ons
 * (feature toggle), the number limit, and the past-due state with a retry. Reading needs `billing.read`; changes
 * `billing.manage`.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { BILLING_FEATURES, formatUsd, type BillingFeature } from '@switchboard/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/EmptyBlock';
import { PageHeader } from '../../../components/PageHeader';
import { RequireAbility } from '../../../components/RequireAbility';
import { useCan } from '../../../lib/access';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import {
  useCompanyBilling,
  useInvoices,
  useNumberLimit,
  useMigrate,
  usePlans,
  usePreviewMigration,
  useRetryCharge,
  useSaveBilling,
  useSubscription,
  useSubscriptionCall,
  useUpcomingInvoice,
  useUsage,
  useYearlyOffers,
  type BillingFields,
  type Preview,
  type Subscription,
} from '../api/billing';
import { CardForm } from './CardForm';
import { formatDate } from '../../../lib/dates';

const UsageChart = lazy(() => import('./UsageChart'));

const day = (iso: string) => formatDate(iso, { timeZone: 'UTC' });
const STATUS: Record<string, { label: string; color: string }> = {
  trialing: { label: 'Trial', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
  past_due: { label: 'Past due', color: 'red' },
  canceled: { label: 'Canceled', color: 'gray' },
};

function PlanCard() {
  const sub = useSubscription();
  const plans = usePlans();
  const offers = useYearlyOffers();
  const manage = useCan('billing.manage');
  const call = useSubscriptionCall();
  const [changeTo, setChangeTo] = useState<string | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  if (sub.isError) return <LoadError what="your subscription" onRetry={() => void sub.refetch()} />;
  const s = sub.data;
  if (!s) return <Card withBorder>Loading your plan…</Card>;
  const st = STATUS[s.status] ?? STATUS.active!;
  return (
    <Card withBorder component="section" aria-labelledby="plan-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4" id="plan-title">
          Plan: {s.plan.name}
        </Title>
        <Badge color={st.color}>{st.label}</Badge>
      </Group>
      <Text mt="xs">
        {formatUsd(s.plan.priceCents)} per {s.plan.interval} · {s.plan.includedNumbers} numbers, {s.plan.includedMinutes.toLocaleString('en-US')} minutes,{' '}
        {s.plan.includedMessages.toLocaleString('en-US')} messages included
      </Text>
      <Text size="sm" c="dimmed">
        {s.status === 'trialing' ? 'Trial ends' : 'Current period ends'} {day(s.currentPeriodEnd)}
        {s.creditCents > 0 ? ` · Account credit ${formatUsd(s.creditCents)}` : ''}
      </Text>
      {s.status === 'canceled' ? (
        <Alert color="yellow" mt="sm">
          Warning: You have accounts without a subscription. Please contact support!
        </Alert>
      ) : null}
      {s.cancelAtPeriodEnd ? (
        <Alert color="yellow" mt="sm" title="Cancellation pending">
          Your subscription ends on {day(s.currentPeriodEnd)}.{' '}
          {manage ? (
            <Anchor component="button" type="button" onClick={() => call.mutate({ path: 'clear-pending-cancel' })}>
              Keep my subscription
            </Anchor>
          ) : null}
        </Alert>
      ) : null}
      {s.pendingPlan ? (
        <Alert color="blue" mt="sm" title="Plan change pending">
          Your plan changes to {s.pendingPlan.name} on {day(s.currentPeriodEnd)}.{' '}
          {manage ? (
            <Anchor component="button" type="button" onClick={() => call.mutate({ path: 'revert-product-change' })}>
              Revert this change
            </Anchor>
          ) : null}
        </Alert>
      ) : null}
      {manage && s.status !== 'canceled' ? (
        <Group mt="md">
          <Select
            aria-label="Change plan to"
            placeholder="Change plan…"
            data={(plans.data ?? [])
              .filter((p) => p.id !== s.plan.id)
              .map((p) => ({ value: p.id, label: `${p.name} — ${formatUsd(p.priceCents)}/${p.interval}` }))}
            value={null}
            onChange={(v) => setChangeTo(v)}
          />
          {!s.cancelAtPeriodEnd ? (
            <Button variant="default" color="red" onClick={() => setCancelOpen(true)}>
              Cancel subscription
            </Button>
          ) : null}
        </Group>
      ) : null}
      {manage && offers.data && offers.data.length > 0 ? (
        <Stack gap={4} mt="md">
          <Text fw={600} size="sm">
            Save with yearly billing
          </Text>
          {offers.data
            .filter((o) => o.plan.id !== s.plan.id)
            .map((o) => (
              <Group key={o.plan.id} gap="xs">
                <Text size="sm">
                  {o.plan.name}: {formatUsd(o.yearlyCents)}/year ({formatUsd(o.monthlyEquivalentCents)}/month)
                  {o.savingsCents > 0 ? `, save ${formatUsd(o.savingsCents)}` : ''}
                </Text>
                <Button size="compact-xs" variant="light" onClick={() => setChangeTo(o.plan.id)}>
                  {o.plan.family === s.plan.family ? 'Switch to yearly' : `Upgrade to ${o.plan.name}`}
                </Button>
              </Group>
            ))}
        </Stack>
      ) : null}
      {changeTo ? <ChangePlanModal planId={changeTo} onClose={() => setChangeTo(null)} /> : null}
      <CancelModal opened={cancelOpen} onClose={() => setCancelOpen(false)} currentPriceCents={s.plan.priceCents} currentId={s.plan.id} />
    </Card>
  );
}

function PreviewTable({ p }: { p: Preview }) {
  return (
    <Table aria-label="Proration preview">
      <Table.Tbody>
        {p.lines.map((l) => (
          <Table.Tr key={l.kind}>
            <Table.Td>{l.description}</Table.Td>
            <Table.Td ta="right">{formatUsd(l.amountCents)}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={700}>Charged now</Table.Td>
          <Table.Td ta="right" fw={700}>
            {formatUsd(p.chargeNowCents)}
          </Table.Td>
        </Table.Tr>
        {p.creditCents > 0 ? (
          <Table.Tr>
            <Table.Td>Added to your account credit</Table.Td>
            <Table.Td ta="right">{formatUsd(p.creditCents)}</Table.Td>
          </Table.Tr>
        ) : null}
      </Table.Tbody>
    </Table>
  );
}

function ChangePlanModal({ planId, onClose }: { planId: string; onClose: () => void }) {
  const preview = usePreviewMigration();
  const migrate = useMigrate();
  const later = useSubscriptionCall();
  const { mutate } = preview;
  const [stale, setStale] = useState<string | null>(null);
  useEffect(() => mutate(planId), [mutate, planId]);
  const p = preview.data;
  const confirm = (shown: Preview) =>
    migrate.mutate(
      { planId, prorationDate: shown.prorationDate, expectedAmountCents: shown.chargeNowCents },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          onClose();
        },
        onError: (e) => {
          // The amount is no longer the previewed one (or the subscription changed): show why and preview again.
          if (e instanceof HttpError && e.status === 422) {
            setStale(e.message);
            mutate(planId);
          }
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title="Change plan">
      {preview.isPending ? <Text>Computing the proration…</Text> : null}
      {preview.error ? <Alert color="red">{preview.error.message}</Alert> : null}
      {p ? (
        <Stack>
          {stale ? (
            <Alert color="yellow" title="The amount changed" data-testid="proration-changed">
              {stale}
            </Alert>
          ) : null}
          <Text>
            From {p.fromPlan.name} to {p.toPlan.name}. The unused time of your current plan is credited and the new plan is charged
            {p.fromPlan.interval === p.toPlan.interval ? ' for the rest of the period' : ' for a new period'} (until {day(p.newPeriodEnd)}).
          </Text>
          <PreviewTable p={p} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep current plan
            </Button>
            <Button loading={migrate.isPending} disabled={preview.isPending} onClick={() => confirm(p)}>
              Confirm change
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Or keep {p.fromPlan.name} until the end of the current period and move to {p.toPlan.name} then, with nothing prorated:{' '}
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => later.mutate({ path: '', method: 'put', body: { plan_id: planId } }, { onSuccess: onClose })}
            >
              Change at the end of the period
            </Anchor>
          </Text>
        </Stack>
      ) : null}
    </Modal>
  );
}

function CancelModal({
  opened,
  onClose,
  currentPriceCents,
  currentId,
}: {
  opened: boolean;
  onClose: () => void;
  currentPriceCents: number;
  currentId: string;
}) {
  const plans = usePlans();
  const call = useSubscriptionCall();
  const cheaper = (plans.data ?? []).filter((p) => p.id !== currentId && (p.interval === 'year' ? p.priceCents / 12 : p.priceCents) < currentPriceCents);
  return (
    <Modal opened={opened} onClose={onClose} title="Cancel subscription">
      <Stack>
        <Text>Your subscription stays active until the end of the current period.</Text>
        {cheaper.length > 0 ? (
          <Card withBorder bg="blue.0">
            <Text fw={600}>Before you go: switch to a cheaper plan instead?</Text>
            {cheaper.map((p) => (
              <Group key={p.id} justify="space-between" mt="xs">
                <Text size="sm">
                  {p.name}: {formatUsd(p.priceCents)}/{p.interval}
                </Text>
                <Button size="xs" variant="light" onClick={() => call.mutate({ path: 'cancel', body: { downsell_plan_id: p.id } }, { onSuccess: onClose })}>
                  Switch at period end
                </Button>
              </Group>
            ))}
          </Card>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep subscription
          </Button>
          <Button color="red" loading={call.isPending} onClick={() => call.mutate({ path: 'cancel', body: {} }, { onSuccess: onClose })}>
            Cancel at period end
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Meter({ label, used, included }: { label: string; used: number; included: number }) {
  const pct = included > 0 ? Math.min(100, (used / included) * 100) : 0;
  return (
    <div>
      <Group justify="space-between">
        <Text size="sm">{label}</Text>
        <Text size="sm" c={used > included ? 'red' : undefined}>
          {used.toLocaleString('en-US')} / {included.toLocaleString('en-US')}
        </Text>
      </Group>
      <Progress value={pct} color={used > included ? 'red' : 'blue'} aria-label={`${label} used`} />
    </div>
  );
}

/**
 * How extra numbers are billed, in the person's figures (docs/billing.md "Usage"): the numbers over the allowance now
 * at the plan's monthly price, billed by the days held (ceil(number-days over / days of the period)), so the figure
 * so far and the one at the period end if the numbers are kept.
 */
function NumbersNote({ u, trial }: { u: NonNullable<ReturnType<typeof useUsage>['data']>; trial: boolean }) {
  const n = u.numbers;
  const extra = Math.max(0, n.current - n.included);
  if (extra === 0 && n.numberDaysOver === 0)
    return (
      <Text size="xs" c="dimmed" data-testid="numbers-note">
        {n.included - n.current} more {n.included - n.current === 1 ? 'number is' : 'numbers are'} included in your plan.
      </Text>
    );
  return (
    <Text size="xs" c="dimmed" data-testid="numbers-note">
      {extra > 0 ? `${extra} over the ${n.included} included, ${formatUsd(n.unitCents)} a month each, billed by the days held. ` : ''}
      Kept to {day(u.periodEnd)}: {n.projectedExtra} × {formatUsd(n.unitCents)} = {formatUsd(n.projectedExtra * n.unitCents)}
      {trial ? ' (not billed during the trial)' : ''}.
    </Text>
  );
}

function UsageCard() {
  const usage = useUsage();
  const trial = useSubscription().data?.status === 'trialing';
  if (usage.isError) return <LoadError what="usage" onRetry={() => void usage.refetch()} />;
  const u = usage.data;
  return (
    <Card withBorder component="section" aria-labelledby="usage-title">
      <Title order={2} size="h4" id="usage-title">
        Usage this period
      </Title>
      {!u ? (
        <Text>Loading usage…</Text>
      ) : (
        <Stack gap="sm" mt="sm">
          <Text size="sm" c="dimmed">
            {day(u.periodStart)} – {day(u.periodEnd)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stack gap={2}>
              <Meter label="Numbers" used={u.numbers.current} included={u.numbers.included} />
              <NumbersNote u={u} trial={trial} />
            </Stack>
            <Meter
              label={`Minutes (${u.minutes.inbound} in, ${u.minutes.outbound} out)`}
              used={u.minutes.inbound + u.minutes.outbound}
              included={u.minutes.included}
            />
            <Meter label="Messages (SMS segments + MMS)" used={u.messages.smsSegments + u.messages.mmsMessages} included={u.messages.included} />
          </SimpleGrid>
          {u.daily.length > 0 ? (
            <Suspense fallback={<Text size="sm">Loading chart…</Text>}>
              <UsageChart daily={u.daily} />
            </Suspense>
          ) : (
            <Text size="sm" c="dimmed">
              No calls or messages yet this period.
            </Text>
          )}
          <Group gap="lg" aria-label="Services billed per use">
            <Text size="sm">Fax pages: {u.metered.faxPages.toLocaleString('en-US')}</Text>
            <Text size="sm">Caller name lookups: {u.metered.lookups.toLocaleString('en-US')}</Text>
            <Text size="sm">Transcription minutes: {u.metered.transcriptionMinutes.toLocaleString('en-US')}</Text>
          </Group>
          {u.overage.length > 0 && (
            <Table fz="sm" aria-label="Overage so far">
              <Table.Tbody>
                {u.overage.map((l) => (
                  <Table.Tr key={l.kind}>
                    <Table.Td>{l.description}</Table.Td>
                    <Table.Td>
                      {l.quantity.toLocaleString('en-US')} × {formatUsd(l.unitCents)}
                    </Table.Td>
                    <Table.Td ta="right">{formatUsd(l.amountCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Text size="sm">
            Overage so far: {formatUsd(u.overageCents)}
            {trial && u.overageCents > 0 ? ' (not billed during the trial)' : ''}
          </Text>
        </Stack>
      )}
    </Card>
  );
}

function PaymentCard() {
  const billing = useCompanyBilling();
  const manage = useCan('billing.manage');
  const save = useSaveBilling();
  const retry = useRetryCharge();
  const [cardOpen, setCardOpen] = useState(false);
  const [form, setForm] = useState<BillingFields | null>(null);
  if (billing.isError) return <LoadError what="billing details" onRetry={() => void billing.refetch()} />;
  const b = billing.data;
  if (!b) return <Card withBorder>Loading billing details…</Card>;
  const fields: Array<[keyof BillingFields, string]> = [
    ['billing_name', 'Name on invoices'],
    ['billing_address', 'Address'],
    ['billing_address_2', 'Address line 2'],
    ['billing_city', 'City'],
    ['billing_state', 'State'],
    ['billing_zip', 'ZIP code'],
    ['billing_country', 'Country (2 letters)'],
  ];
  const fe = (f: string) => (save.error instanceof HttpError ? save.error.fieldErrors[f]?.[0] : undefined);
  return (
    <Card withBorder component="section" aria-labelledby="payment-title">
      <Title order={2} size="h4" id="payment-title">
        Payment method
      </Title>
      {b.pastDue ? (
        <Alert color="red" mt="sm" title="Payment past due">
          {b.pastDueMessage}
          {manage ? (
            <Group mt="xs">
              <Button size="xs" color="red" loading={retry.isPending} onClick={() => retry.mutate(undefined, { onSuccess: (r) => notify.success(r.message) })}>
                Retry payment
              </Button>
            </Group>
          ) : null}
          {retry.error instanceof HttpError && retry.error.status === 422 ? <Text size="sm">{retry.error.message}</Text> : null}
        </Alert>
      ) : null}
      <Group justify="space-between" mt="sm">
        <Text data-testid="card-on-file">
          {b.card
            ? `${b.card.brand.toUpperCase()} ending in ${b.card.last4}, expires ${String(b.card.expMonth).padStart(2, '0')}/${b.card.expYear}`
            : 'No card on file'}
        </Text>
        {manage ? <Button onClick={() => setCardOpen(true)}>{b.card ? 'Replace card' : 'Add card'}</Button> : null}
      </Group>
      <Modal opened={cardOpen} onClose={() => setCardOpen(false)} title={b.card ? 'Replace card' : 'Add card'}>
        <CardForm onDone={() => setCardOpen(false)} />
      </Modal>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (form) save.mutate(form, { onSuccess: (r) => (r.message ? notify.success(r.message) : undefined, setForm(null)) });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md">
          {fields.map(([f, label]) => (
            <TextInput
              key={f}
              label={label}
              readOnly={!manage}
              value={form?.[f] ?? b[f]}
              error={fe(f)}
              onChange={(e) => setForm({ ...(form ?? {}), [f]: e.currentTarget.value })}
            />
          ))}
        </SimpleGrid>
        {manage ? (
          <Group justify="flex-end" mt="sm">
            <Button type="submit" variant="light" disabled={!form} loading={save.isPending}>
              Save billing details
            </Button>
          </Group>
        ) : null}
      </form>
    </Card>
  );
}

/**
 * The invoice the period end creates if nothing changes (docs/billing.md "Upcoming invoice"), also during the trial:
 * its date, lines and total; nothing once the subscription is canceled.
 */
function UpcomingInvoice() {
  const upcoming = useUpcomingInvoice();
  if (upcoming.isError) return <LoadError what="the upcoming invoice" onRetry={() => void upcoming.refetch()} />;
  if (upcoming.isPending) return <Text size="sm">Loading the upcoming invoice…</Text>;
  const u = upcoming.data;
  if (!u) return null;
  return (
    <Stack gap={4} mb="md" data-testid="upcoming-invoice">
      <Text fw={600} size="sm">
        Upcoming invoice on {day(u.date)}: {formatUsd(u.amountDueCents)}
      </Text>
      <Text size="xs" c="dimmed">
        If nothing changes until then: usage so far, then the next period ({day(u.periodStart)} – {day(u.periodEnd)}).
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table fz="sm" aria-label="Upcoming invoice">
          <Table.Tbody>
            {u.lines.map((l) => (
              <Table.Tr key={l.kind}>
                <Table.Td>{l.description}</Table.Td>
                <Table.Td ta="right">{formatUsd(l.amountCents)}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td fw={700}>Total</Table.Td>
              <Table.Td ta="right" fw={700}>
                {formatUsd(u.totalCents)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function InvoicesCard() {
  const invoices = useInvoices();
  if (invoices.isError) return <LoadError what="invoices" onRetry={() => void invoices.refetch()} />;
  const list = invoices.data;
  return (
    <Card withBorder component="section" aria-labelledby="invoices-title">
      <Title order={2} size="h4" id="invoices-title" mb="sm">
        Invoices
      </Title>
      <UpcomingInvoice />
      {!list ? (
        <Text>Loading invoices…</Text>
      ) : list.length === 0 ? (
        <Text c="dimmed">No invoices issued yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Invoices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Number</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>PDF</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.number}</Table.Td>
                  <Table.Td>{day(i.createdAt)}</Table.Td>
                  <Table.Td>{formatUsd(i.totalCents)}</Table.Td>
                  <Table.Td>
                    <Badge color={i.status === 'paid' ? 'teal' : i.status === 'open' ? 'red' : 'gray'}>
                      {i.status === 'open' ? 'Due' : i.status === 'paid' ? 'Paid' : 'Void'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Anchor href={i.pdfUrl} download={`invoice-${i.number}.pdf`}>
                      Download {i.number}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/**
 * The number limit (spec 002 "number limit and its increase request"): shown to roles that see numbers; the increase
 * request is the Numbers page's dialog (`/numbers?dialog=number-limit`, roles that may buy numbers).
 */
function NumberLimitCard() {
  const canSee = useCan('numbers.read');
  const canRequest = useCan('numbers.purchase');
  const limit = useNumberLimit(canSee);
  if (!canSee) return null;
  if (limit.isError) return <LoadError what="the number limit" onRetry={() => void limit.refetch()} />;
  const l = limit.data;
  return (
    <Card withBorder component="section" aria-labelledby="number-limit-title" id="number-limit">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4" id="number-limit-title">
          Number limit
        </Title>
        {canRequest ? (
          <Button component={Link} to="/numbers?dialog=number-limit" variant="default" size="xs">
            Request a limit increase
          </Button>
        ) : null}
      </Group>
      {!l ? (
        <Text mt="sm">Loading the number limit…</Text>
      ) : (
        <Stack gap={4} mt="sm">
          <Meter label="Numbers in use" used={l.used} included={l.limit} />
          <Text size="xs" c="dimmed">
            Buying beyond {l.limit.toLocaleString('en-US')} numbers is refused until the limit is raised.
          </Text>
        </Stack>
      )}
    </Card>
  );
}

/**
 * Invoice e-mails (spec 002 "customer update": customer e-mail, ccEmails, receivesInvoiceEmails), saved with
 * `PUT …/subscription/customer` ("Information updated successfully"); read-only without `billing.manage`.
 */
function CustomerCard({ s }: { s: Subscription }) {
  const manage = useCan('billing.manage');
  const call = useSubscriptionCall();
  const [email, setEmail] = useState(s.customer.email ?? '');
  const [cc, setCc] = useState<string[]>(s.customer.ccEmails);
  const [receives, setReceives] = useState(s.customer.receivesInvoiceEmails);
  const fe = call.error instanceof HttpError ? call.error.fieldErrors : {};
  const ccError = Object.entries(fe)
    .filter(([k]) => k === 'ccEmails' || k.startsWith('ccEmails.'))
    .flatMap(([, v]) => v)[0];
  const dirty = email !== (s.customer.email ?? '') || receives !== s.customer.receivesInvoiceEmails || cc.join('\n') !== s.customer.ccEmails.join('\n');
  return (
    <Card withBorder component="section" aria-labelledby="customer-title">
      <Title order={2} size="h4" id="customer-title">
        Invoice e-mails
      </Title>
      <Stack
        component="form"
        gap="sm"
        mt="sm"
        onSubmit={(e) => {
          e.preventDefault();
          call.mutate({ path: 'customer', method: 'put', silent: true, body: { email: email.trim(), ccEmails: cc, receivesInvoiceEmails: receives } });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Billing e-mail"
            type="email"
            required
            readOnly={!manage}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fe.email?.[0]}
          />
          <TagsInput
            label="Copies to (cc)"
            description="Up to 10 addresses; press Enter after each"
            maxTags={10}
            readOnly={!manage}
            value={cc}
            onChange={setCc}
            splitChars={[',', ' ', ';']}
            error={ccError}
          />
        </SimpleGrid>
        <Switch label="E-mail me each invoice" disabled={!manage} checked={receives} onChange={(e) => setReceives(e.currentTarget.checked)} />
        {manage ? (
          <Group justify="flex-end">
            <Button type="submit" variant="light" disabled={!dirty} loading={call.isPending}>
              Save invoice e-mails
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * Add-ons (spec 002 "feature toggle"; `POST …/subscription/features`, "Feature enabled successfully" / "Feature
 * disabled successfully"), billed monthly from the next invoice; read-only without `billing.manage` or when canceled.
 */
function FeaturesCard({ s }: { s: Subscription }) {
  const manage = useCan('billing.manage');
  const call = useSubscriptionCall();
  const pending = call.isPending ? (call.variables?.body as { feature?: BillingFeature } | undefined)?.feature : undefined;
  return (
    <Card withBorder component="section" aria-labelledby="features-title">
      <Title order={2} size="h4" id="features-title">
        Add-ons
      </Title>
      <Text size="sm" c="dimmed">
        Billed each period from your next invoice.
      </Text>
      <Stack gap="xs" mt="sm">
        {(Object.keys(BILLING_FEATURES) as BillingFeature[]).map((f) => {
          // An add-on used in the product is billed and stays on while used (docs/billing.md "Add-ons").
          const use = s.featuresInUse.find((x) => x.feature === f);
          return (
            <Switch
              key={f}
              label={`${BILLING_FEATURES[f].label} (${formatUsd(BILLING_FEATURES[f].monthlyCents)}/month)`}
              description={use ? `In use: ${use.reason} It stays on while used.` : undefined}
              checked={s.features.includes(f)}
              disabled={!manage || s.status === 'canceled' || pending !== undefined || use !== undefined}
              onChange={(e) => call.mutate({ path: 'features', body: { feature: f, enabled: e.currentTarget.checked } })}
            />
          );
        })}
      </Stack>
    </Card>
  );
}

/** The subscription's own settings, once it is loaded (keyed so the form restarts from the saved values). */
function SubscriptionSettings() {
  const sub = useSubscription();
  const s = sub.data;
  if (!s) return null;
  const key = `${s.customer.email}|${s.customer.ccEmails.join(',')}|${String(s.customer.receivesInvoiceEmails)}`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <CustomerCard key={key} s={s} />
      <FeaturesCard s={s} />
    </SimpleGrid>
  );
}

/** The /billing page (owner and billing roles; others see why not). */
export function BillingPage() {
  return (
    <RequireAbility ability="billing.read" title="Billing">
      <PageHeader title="Billing" description="Your plan, usage, payment method and invoices." />
      <Stack>
        <PlanCard />
        <UsageCard />
        <PaymentCard />
        <SubscriptionSettings />
        <NumberLimitCard />
        <InvoicesCard />
      </Stack>
    </RequireAbility>
  );
}
