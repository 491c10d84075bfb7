/**
 * The SMS verification page (spec 002 §2 "SMS verification (brand and campaign forms)", §3, §4, §8; docs/sms-verification.md
 * "Screen"): the brand form, the campaign form with opt-in methods and their supporting files, the status of each side
 * (local: 10DLC, toll-free: toll-free verification) with badges and the registry's reasons, the numbers on the
 * campaign (add, remove), the fees due today, submit with a confirmation (the spec's success message; a failure's
 * message with title Error), cancel per side with a confirmation (expired at once, read again after 15 s), and the
 * history. Status changes arrive live. Every member reads; owner and administrator (`settings.manage`) change.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  SMS_COMPANY_TYPES,
  SMS_MESSAGE_VOLUMES,
  SMS_OPTIN_METHODS,
  SMS_STOCK_EXCHANGES,
  SMS_TAX_ID_TYPES,
  SMS_USE_CASES,
  SMS_VERTICALS,
  formatUsd,
  type SmsBrandInput,
  type SmsCampaignInput,
  type SmsSide,
} from '@switchboard/contracts';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { PageHeader } from '../../../components/PageHeader';
import { useCan } from '../../../lib/access';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import {
  useCancelSms,
  useCheckSms,
  useCompanyNumbersForSms,
  useDeleteSms,
  useSaveSmsDraft,
  useSmsCampaigns,
  useSmsNumbers,
  useSubmitSms,
  type SmsCampaign,
} from '../api/sms-verification';
import readOnlyClasses from './ReadOnlyFieldset.module.css';
import { formatDateTime } from '../../../lib/dates';

const ERROR_MS = 8_000;
const SIDE_LABEL: Record<SmsSide, string> = { local: 'Local (10DLC)', toll_free: 'Toll-free' };
const STATUS_COLOR: Record<string, string> = {
  draft: 'gray',
  pending: 'yellow',
  verified: 'teal',
  approved: 'teal',
  unverified: 'red',
  rejected: 'red',
  expired: 'gray',
};
const label = (s: string | null) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace('_', ' ') : 'Not submitted');

function StatusBadge({ status, name }: { status: string | null; name: string }) {
  return (
    <Badge color={STATUS_COLOR[status ?? ''] ?? 'gray'} variant="light" aria-label={`${name}: ${label(status)}`}>
      {label(status)}
    </Badge>
  );
}

type OptinForm = { method: string; description: string; keep_files: string[]; files: File[] };
type CampaignForm = {
  use_case: string | null;
  sub_usecases: string[];
  description: string;
  message_volume: string | null;
  sample_messages: string[];
  optins: OptinForm[];
  opt_out_message: string;
  help_message: string;
  embedded_links: boolean;
  embedded_phone: boolean;
  age_gated: boolean;
  direct_lending: boolean;
};

function brandForm(c: SmsCampaign | undefined): Record<string, string | null> {
  const b = c?.brand;
  return {
    company_type: b?.company_type ?? null,
    legal_name: b?.legal_name ?? '',
    dba_name: b?.dba_name ?? '',
    tax_id: b?.tax_id ?? '',
    tax_id_type: b?.tax_id_type ?? null,
    alt_business_id: b?.alt_business_id ?? '',
    stock_exchange: b?.stock_exchange ?? null,
    stock_symbol: b?.stock_symbol ?? '',
    vertical: b?.vertical ?? null,
    website: b?.website ?? '',
    email: b?.email ?? '',
    phone: b?.phone ?? '',
    street: b?.street ?? '',
    city: b?.city ?? '',
    state: b?.state ?? '',
    postal_code: b?.postal_code ?? '',
    contact_first_name: b?.contact_first_name ?? '',
    contact_last_name: b?.contact_last_name ?? '',
  };
}

function campaignForm(c: SmsCampaign | undefined): CampaignForm {
  return {
    use_case: c?.use_case ?? null,
    sub_usecases: c?.sub_usecases ?? [],
    description: c?.description ?? '',
    message_volume: c?.message_volume ?? null,
    sample_messages: [0, 1, 2].map((i) => c?.sample_messages[i] ?? ''),
    optins: (c?.optins ?? []).map((o) => ({ method: o.method, description: o.description, keep_files: o.supporting_files.map((f) => f.name), files: [] })),
    opt_out_message: c?.opt_out_message ?? '',
    help_message: c?.help_message ?? '',
    embedded_links: c?.embedded_links ?? false,
    embedded_phone: c?.embedded_phone ?? false,
    age_gated: c?.age_gated ?? false,
    direct_lending: c?.direct_lending ?? false,
  };
}

/** /sms-verification */
export function SmsVerificationPage() {
  const campaigns = useSmsCampaigns();
  const manage = useCan('settings.manage');
  const save = useSaveSmsDraft();
  const list = campaigns.data;
  const [selected, setSelected] = useState<number | null>(null);
  const campaign = list?.find((c) => c.id === selected) ?? list?.[0];
  // Came from a campaign draft whose number is not registered (docs/campaigns.md "Sending numbers"): the way back.
  const [params] = useSearchParams();
  const draftId = Number(params.get('campaign_draft'));

  return (
    <Stack gap="lg" maw={960}>
      <PageHeader
        title="SMS verification"
        description="Register your business (brand) and how you text people (campaign) so carriers deliver your texts: local numbers through 10DLC, toll-free numbers through toll-free verification."
        actions={
          list && list.length > 1 ? (
            <Select
              aria-label="Campaign"
              data={list.map((c) => ({
                value: String(c.id),
                label: `Campaign #${c.id}${c.use_case ? ` · ${SMS_USE_CASES.find((u) => u.value === c.use_case)?.label ?? c.use_case}` : ''}`,
              }))}
              value={String(campaign?.id ?? '')}
              onChange={(v) => setSelected(v ? Number(v) : null)}
            />
          ) : null
        }
      />
      {Number.isInteger(draftId) && draftId > 0 ? (
        <Alert color="blue" variant="light" data-testid="back-to-draft">
          Your campaign draft is saved.{' '}
          <Anchor component={Link} to={`/campaigns/${draftId}/edit`}>
            Back to your campaign draft
          </Anchor>
        </Alert>
      ) : null}
      {campaigns.isError ? <LoadError what="your SMS verification" onRetry={() => void campaigns.refetch()} /> : null}
      {campaigns.isPending ? <Card withBorder>Loading your SMS verification…</Card> : null}
      {list && !campaign ? (
        <EmptyCard
          title="No SMS verification yet"
          description="Carriers block campaigns from numbers that are not registered. Start with your brand and campaign details; you can save a draft and submit later."
          action={
            manage ? (
              <Button loading={save.isPending} onClick={() => save.mutate({ data: {} }, { onError: (e) => notify.danger(e.message, ERROR_MS) })}>
                Start registration
              </Button>
            ) : undefined
          }
        />
      ) : null}
      {campaign ? <CampaignView key={campaign.id} campaign={campaign} manage={manage} /> : null}
    </Stack>
  );
}

function CampaignView({ campaign, manage }: { campaign: SmsCampaign; manage: boolean }) {
  const save = useSaveSmsDraft();
  const [brand, setBrand] = useState(() => brandForm(campaign));
  const [form, setForm] = useState(() => campaignForm(campaign));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const version = campaign.updated_at;
  // A change from elsewhere (live status, another tab) reloads the forms.
  useEffect(() => {
    setBrand(brandForm(campaign));
    setForm(campaignForm(campaign));
  }, [version]);

  const brandEditable = manage && ['draft', 'unverified', 'expired'].includes(campaign.brand.status);
  const campaignEditable =
    manage && !['pending', 'approved'].includes(campaign.status.local ?? '') && !['pending', 'approved'].includes(campaign.status.toll_free ?? '');
  const err = (field: string) => errors[field]?.join(' ');

  const onSave = () => {
    const files = new Map<number, File[]>();
    form.optins.forEach((o, i) => {
      if (o.files.length) files.set(i, o.files);
    });
    const brandData = Object.fromEntries(Object.entries(brand).map(([k, v]) => [k, v])) as SmsBrandInput;
    const campaignData: SmsCampaignInput = {
      use_case: form.use_case as SmsCampaignInput['use_case'],
      sub_usecases: form.sub_usecases as SmsCampaignInput['sub_usecases'],
      description: form.description,
      message_volume: form.message_volume as SmsCampaignInput['message_volume'],
      sample_messages: form.sample_messages.filter((m) => m.trim()),
      optins: form.optins.map((o) => ({ method: o.method as 'OTHER', description: o.description, keep_files: o.keep_files })),
      opt_out_message: form.opt_out_message,
      help_message: form.help_message,
      embedded_links: form.embedded_links,
      embedded_phone: form.embedded_phone,
      age_gated: form.age_gated,
      direct_lending: form.direct_lending,
    };
    save.mutate(
      {
        id: campaign.id,
        brandId: campaign.brand.id,
        data: { ...(brandEditable ? { brand: brandData } : {}), ...(campaignEditable ? { campaign: campaignData } : {}) },
        files,
      },
      {
        onSuccess: () => {
          setErrors({});
          notify.success('The SMS verification draft was saved.');
        },
        onError: (e) => {
          if (e instanceof HttpError) setErrors(e.fieldErrors);
          notify.danger(e.message, ERROR_MS);
        },
      },
    );
  };

  return (
    <Stack gap="lg">
      <StatusCard campaign={campaign} manage={manage} onErrors={setErrors} />
      <Card withBorder component="section" aria-labelledby="brand-title">
        <Title order={2} size="h4" id="brand-title" mb="sm">
          Brand
        </Title>
        <fieldset disabled={!brandEditable} className={readOnlyClasses.fieldset}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Company type"
              data={[...SMS_COMPANY_TYPES]}
              value={brand.company_type}
              onChange={(v) => setBrand({ ...brand, company_type: v })}
              error={err('brand.company_type')}
            />
            <Select
              label="Industry"
              searchable
              data={[...SMS_VERTICALS]}
              value={brand.vertical}
              onChange={(v) => setBrand({ ...brand, vertical: v })}
              error={err('brand.vertical')}
            />
            {(
              [
                'legal_name',
                'dba_name',
                'tax_id',
                'website',
                'email',
                'phone',
                'street',
                'city',
                'state',
                'postal_code',
                'contact_first_name',
                'contact_last_name',
              ] as const
            ).map((f) => (
              <TextInput
                key={f}
                label={BRAND_LABELS[f]}
                value={brand[f] ?? ''}
                onChange={(e) => setBrand({ ...brand, [f]: e.currentTarget.value })}
                error={err(`brand.${f}`)}
              />
            ))}
            <Select
              label="Other business id type"
              clearable
              data={[...SMS_TAX_ID_TYPES]}
              value={brand.tax_id_type}
              onChange={(v) => setBrand({ ...brand, tax_id_type: v })}
              error={err('brand.tax_id_type')}
            />
            <TextInput
              label="Other business id"
              value={brand.alt_business_id ?? ''}
              onChange={(e) => setBrand({ ...brand, alt_business_id: e.currentTarget.value })}
              error={err('brand.alt_business_id')}
            />
            {brand.company_type === 'PUBLIC_PROFIT' ? (
              <>
                <Select
                  label="Stock exchange"
                  data={[...SMS_STOCK_EXCHANGES]}
                  value={brand.stock_exchange}
                  onChange={(v) => setBrand({ ...brand, stock_exchange: v })}
                  error={err('brand.stock_exchange')}
                />
                <TextInput
                  label="Stock symbol"
                  value={brand.stock_symbol ?? ''}
                  onChange={(e) => setBrand({ ...brand, stock_symbol: e.currentTarget.value })}
                  error={err('brand.stock_symbol')}
                />
              </>
            ) : null}
          </SimpleGrid>
        </fieldset>
      </Card>

      <Card withBorder component="section" aria-labelledby="campaign-title">
        <Title order={2} size="h4" id="campaign-title" mb="sm">
          Campaign
        </Title>
        <fieldset disabled={!campaignEditable} className={readOnlyClasses.fieldset}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Use case"
                data={[...SMS_USE_CASES]}
                value={form.use_case}
                onChange={(v) => setForm({ ...form, use_case: v })}
                error={err('campaign.use_case')}
              />
              <Select
                label="Monthly messages"
                data={[...SMS_MESSAGE_VOLUMES]}
                value={form.message_volume}
                onChange={(v) => setForm({ ...form, message_volume: v })}
                error={err('campaign.message_volume')}
              />
            </SimpleGrid>
            <MultiSelect
              label="Sub use cases"
              data={SMS_USE_CASES.filter((u) => u.value !== form.use_case).map((u) => ({ ...u }))}
              value={form.sub_usecases}
              maxValues={5}
              onChange={(v) => setForm({ ...form, sub_usecases: v })}
              error={err('campaign.sub_usecases')}
            />
            <Textarea
              label="Campaign description"
              description="Who sends the messages, to whom and why."
              autosize
              minRows={2}
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}
              error={err('campaign.description')}
            />
            {form.sample_messages.map((m, i) => (
              <Textarea
                key={i}
                label={`Sample message ${i + 1}`}
                autosize
                value={m}
                onChange={(e) => setForm({ ...form, sample_messages: form.sample_messages.map((x, j) => (j === i ? e.currentTarget.value : x)) })}
                error={i === 0 ? err('campaign.sample_messages') : undefined}
              />
            ))}
            <Stack gap="xs" role="group" aria-label="Opt-in methods">
              <Text fw={500} size="sm">
                How people opt in
              </Text>
              {err('campaign.optins') ? (
                <Text c="red" size="sm">
                  {err('campaign.optins')}
                </Text>
              ) : null}
              {SMS_OPTIN_METHODS.map((m) => {
                const i = form.optins.findIndex((o) => o.method === m.value);
                const o = form.optins[i];
                const stored = campaign.optins.find((x) => x.method === m.value)?.supporting_files ?? [];
                return (
                  <Card key={m.value} withBorder padding="sm">
                    <Checkbox
                      label={m.label}
                      checked={!!o}
                      onChange={(e) =>
                        setForm({
                          ...form,
                          optins: e.currentTarget.checked
                            ? [...form.optins, { method: m.value, description: '', keep_files: [], files: [] }]
                            : form.optins.filter((x) => x.method !== m.value),
                        })
                      }
                    />
                    {o ? (
                      <Stack gap="xs" mt="xs">
                        <Textarea
                          label={`${m.label}: how a person agrees to receive texts`}
                          autosize
                          value={o.description}
                          onChange={(e) =>
                            setForm({ ...form, optins: form.optins.map((x, j) => (j === i ? { ...x, description: e.currentTarget.value } : x)) })
                          }
                          error={err(`campaign.optins.${i}.description`)}
                        />
                        {stored.length ? (
                          <Group gap="xs">
                            {stored.map((f) => (
                              <Checkbox
                                key={f.name}
                                size="xs"
                                label={
                                  <a href={f.url} target="_blank" rel="noreferrer">
                                    {f.name}
                                  </a>
                                }
                                checked={o.keep_files.includes(f.name)}
                                onChange={(e) =>
                                  setForm({
                                    ...form,
                                    optins: form.optins.map((x, j) =>
                                      j === i
                                        ? { ...x, keep_files: e.currentTarget.checked ? [...x.keep_files, f.name] : x.keep_files.filter((n) => n !== f.name) }
                                        : x,
                                    ),
                                  })
                                }
                              />
                            ))}
                          </Group>
                        ) : null}
                        <FileInput
                          label={`${m.label}: supporting files (images or PDF)`}
                          multiple
                          clearable
                          accept="image/png,image/jpeg,image/gif,image/webp,application/pdf"
                          value={o.files}
                          onChange={(files) => setForm({ ...form, optins: form.optins.map((x, j) => (j === i ? { ...x, files } : x)) })}
                          error={err(`optin_${i}_files`)}
                        />
                      </Stack>
                    ) : null}
                  </Card>
                );
              })}
            </Stack>
            <Textarea
              label="Opt-out message"
              autosize
              value={form.opt_out_message}
              onChange={(e) => setForm({ ...form, opt_out_message: e.currentTarget.value })}
              error={err('campaign.opt_out_message')}
            />
            <Textarea
              label="Help message"
              autosize
              value={form.help_message}
              onChange={(e) => setForm({ ...form, help_message: e.currentTarget.value })}
              error={err('campaign.help_message')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Switch
                label="Messages contain links"
                checked={form.embedded_links}
                onChange={(e) => setForm({ ...form, embedded_links: e.currentTarget.checked })}
              />
              <Switch
                label="Messages contain phone numbers"
                checked={form.embedded_phone}
                onChange={(e) => setForm({ ...form, embedded_phone: e.currentTarget.checked })}
              />
              <Switch label="Age-gated content" checked={form.age_gated} onChange={(e) => setForm({ ...form, age_gated: e.currentTarget.checked })} />
              <Switch
                label="Direct lending or loans"
                checked={form.direct_lending}
                onChange={(e) => setForm({ ...form, direct_lending: e.currentTarget.checked })}
              />
            </SimpleGrid>
          </Stack>
        </fieldset>
      </Card>
      {brandEditable || campaignEditable ? (
        <Group>
          <Button onClick={onSave} loading={save.isPending}>
            Save draft
          </Button>
        </Group>
      ) : null}
      <NumbersCard campaign={campaign} manage={manage} />
      <HistoryCard campaign={campaign} />
    </Stack>
  );
}

const BRAND_LABELS: Record<string, string> = {
  legal_name: 'Legal company name',
  dba_name: 'Brand name (DBA)',
  tax_id: 'EIN (tax id)',
  website: 'Website',
  email: 'Contact e-mail',
  phone: 'Contact phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  postal_code: 'ZIP code',
  contact_first_name: 'Contact first name',
  contact_last_name: 'Contact last name',
};

function StatusCard({ campaign, manage, onErrors }: { campaign: SmsCampaign; manage: boolean; onErrors: (e: Record<string, string[]>) => void }) {
  const submit = useSubmitSms();
  const check = useCheckSms();
  const [incomplete, setIncomplete] = useState<string | null>(null);
  const cancel = useCancelSms();
  const del = useDeleteSms();
  const [confirmSubmit, setConfirmSubmit] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [cancelSides, setCancelSides] = useState<SmsSide[]>([]);
  const cancellable = (['local', 'toll_free'] as const).filter((s) => ['pending', 'approved', 'rejected'].includes(campaign.status[s] ?? ''));
  const active = (['local', 'toll_free'] as const).some((s) => ['pending', 'approved'].includes(campaign.status[s] ?? ''));
  const b = campaign.brand;

  const onSubmit = () =>
    submit.mutate(campaign.id, {
      onSuccess: (r) => {
        setConfirmSubmit(false);
        onErrors({});
        notify.success(r.message);
      },
      onError: (e) => {
        setConfirmSubmit(false);
        if (e instanceof HttpError) onErrors(e.fieldErrors);
        notify.danger(e.message, ERROR_MS); // spec 002 §8: the server's message with title Error
      },
    });

  return (
    <Card withBorder component="section" aria-labelledby="status-title">
      <Title order={2} size="h4" id="status-title" mb="sm">
        Status
      </Title>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} w={120}>
            Brand
          </Text>
          <StatusBadge status={b.status} name="Brand" />
          {b.vetting_score !== null ? <Text size="sm">Vetting score {b.vetting_score}</Text> : null}
        </Group>
        {(['local', 'toll_free'] as const).map((side) => (
          <Group key={side} gap="xs" wrap="wrap">
            <Text fw={600} w={120}>
              {SIDE_LABEL[side]}
            </Text>
            <StatusBadge status={campaign.status[side]} name={SIDE_LABEL[side]} />
            {campaign.limits[side] ? (
              <Text size="sm">
                Up to {campaign.limits[side]!.per_second} messages/s per number
                {campaign.limits[side]!.per_day ? `, ${campaign.limits[side]!.per_day!.toLocaleString('en-US')}/day` : ''}
              </Text>
            ) : null}
          </Group>
        ))}
      </Stack>
      {b.status_reason ? (
        <Alert color="red" mt="sm" title="Brand not verified">
          {b.status_reason}
        </Alert>
      ) : null}
      {(['local', 'toll_free'] as const).map((side) =>
        campaign.status[side] === 'rejected' && campaign.reasons[side] ? (
          <Alert key={side} color="red" mt="sm" title={`${SIDE_LABEL[side]} rejected`}>
            {campaign.reasons[side]} Correct the campaign and submit again.
          </Alert>
        ) : null,
      )}
      <Stack gap="sm" mt="md">
        <Text>
          Fees due today: <strong>{formatUsd(campaign.fees.due_today)}</strong>
        </Text>
        {manage ? (
          <Group gap="xs" wrap="wrap">
            {cancellable.length ? (
              <Button
                variant="default"
                color="red"
                onClick={() => {
                  setCancelSides([...cancellable]);
                  setCancelOpen(true);
                }}
              >
                Cancel registration
              </Button>
            ) : null}
            {!active ? (
              <Button variant="subtle" color="red" loading={del.isPending} onClick={() => del.mutate(campaign.id)}>
                Delete
              </Button>
            ) : null}
            <Button
              loading={check.isPending}
              disabled={campaign.fees.items.length === 0}
              onClick={() =>
                // Validated before the fees are confirmed (docs/sms-verification.md "Submit"): an incomplete form shows
                // its fields by label and inline, and no fee confirmation is asked.
                check.mutate(campaign.id, {
                  onSuccess: () => {
                    setIncomplete(null);
                    onErrors({});
                    setConfirmSubmit(true);
                  },
                  onError: (e) => {
                    if (e instanceof HttpError && e.status === 422) {
                      onErrors(e.fieldErrors);
                      setIncomplete(e.message);
                    } else notify.danger(e.message, ERROR_MS);
                  },
                })
              }
            >
              Submit
            </Button>
          </Group>
        ) : null}
      </Stack>
      {incomplete ? (
        <Alert color="red" mt="sm" title="Not ready to submit" data-testid="sms-incomplete">
          {incomplete}
        </Alert>
      ) : null}
      <Modal opened={confirmSubmit} onClose={() => setConfirmSubmit(false)} title="Submit SMS verification?">
        <Stack>
          <Text size="sm">
            The brand and campaign are sent to The Campaign Registry and the carriers for review. Save your draft first: the stored details are submitted.
          </Text>
          {campaign.fees.items.length ? (
            <Table>
              <Table.Tbody>
                {campaign.fees.items.map((f) => (
                  <Table.Tr key={f.code}>
                    <Table.Td>{f.label}</Table.Td>
                    <Table.Td ta="right">{formatUsd(f.amount_cents)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Th>Due today</Table.Th>
                  <Table.Th ta="right">{formatUsd(campaign.fees.due_today)}</Table.Th>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmSubmit(false)}>
              Back
            </Button>
            <Button onClick={onSubmit} loading={submit.isPending}>
              Submit for review
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={cancelOpen} onClose={() => setCancelOpen(false)} title="Cancel SMS verification?">
        <Stack>
          <Text size="sm">Canceled sides expire at once: their numbers can no longer send campaigns.</Text>
          {cancellable.map((s) => (
            <Checkbox
              key={s}
              label={SIDE_LABEL[s]}
              checked={cancelSides.includes(s)}
              onChange={(e) => setCancelSides(e.currentTarget.checked ? [...cancelSides, s] : cancelSides.filter((x) => x !== s))}
            />
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setCancelOpen(false)}>
              Keep registration
            </Button>
            <Button
              color="red"
              disabled={!cancelSides.length}
              loading={cancel.isPending}
              onClick={() =>
                cancel.mutate({ id: campaign.id, sides: cancelSides }, { onSettled: () => setCancelOpen(false), onSuccess: (r) => notify.success(r.message) })
              }
            >
              Cancel selected
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

function NumbersCard({ campaign, manage }: { campaign: SmsCampaign; manage: boolean }) {
  const numbers = useCompanyNumbersForSms();
  const change = useSmsNumbers();
  const [adding, setAdding] = useState<string[]>([]);
  const on = useMemo(() => new Set(campaign.numbers.map((n) => n.id)), [campaign.numbers]);
  const choices = (numbers.data ?? [])
    .filter((n) => !on.has(n.id))
    .map((n) => ({ value: String(n.id), label: `${n.national_number}${n.label ? ` · ${n.label}` : ''}` }));
  return (
    <Card withBorder component="section" aria-labelledby="numbers-title">
      <Title order={2} size="h4" id="numbers-title" mb="sm">
        Numbers on this campaign
      </Title>
      {campaign.numbers.length ? (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Numbers on this campaign">
          {campaign.numbers.map((n) => (
            <Group key={n.id} component="li" justify="space-between" gap="xs" wrap="wrap">
              <Group gap="xs" wrap="wrap">
                <Text fw={500}>{n.national_number}</Text>
                <Text size="sm" c="dimmed">
                  {SIDE_LABEL[n.side]}
                </Text>
                <StatusBadge status={campaign.status[n.side]} name={n.national_number} />
              </Group>
              {manage ? (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${n.national_number}`}
                  onClick={() => change.mutate({ id: campaign.id, action: 'remove-numbers', numberIds: [n.id] })}
                >
                  Remove
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      ) : (
        <Text c="dimmed" size="sm">
          No numbers yet. Add the numbers that will send campaigns.
        </Text>
      )}
      {manage ? (
        <Group mt="sm" align="flex-end" wrap="nowrap" gap="xs">
          <MultiSelect
            label="Add numbers"
            placeholder={choices.length ? 'Choose numbers' : 'No other numbers'}
            data={choices}
            value={adding}
            onChange={setAdding}
            searchable
            style={{ flex: 1, minWidth: 0 }}
          />
          <Button
            disabled={!adding.length}
            loading={change.isPending}
            onClick={() => change.mutate({ id: campaign.id, action: 'add-numbers', numberIds: adding.map(Number) }, { onSuccess: () => setAdding([]) })}
          >
            Add
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}

function HistoryCard({ campaign }: { campaign: SmsCampaign }) {
  if (!campaign.history.length) return null;
  return (
    <Card withBorder component="section" aria-labelledby="history-title">
      <Title order={2} size="h4" id="history-title" mb="sm">
        History
      </Title>
      <Stack gap={4}>
        {[...campaign.history].reverse().map((h, i) => (
          <Text key={i} size="sm">
            {formatDateTime(h.at)} · {h.subject === 'brand' ? 'Brand' : SIDE_LABEL[h.subject]}: {label(h.to_status)}
            {h.reason ? ` — ${h.reason}` : ''}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
