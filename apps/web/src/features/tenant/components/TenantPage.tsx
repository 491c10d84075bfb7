/**
 * Tenant settings (spec 002 "Organizations and tenant"; docs/workspace.md "Tenant"): the organization's white-label
 * information (name, logo, favicon, colours, support contact) with a live preview, its custom domain (TLD checked as
 * typed, the DNS records to create, their check) and its e-mail sender (the DKIM, SPF and return-path records, their
 * check). Owners and administrators of the organization's companies change it; others see it.
 */
import { Alert, Badge, Box, Button, Card, ColorInput, Code, CopyButton, Group, Image, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconCopy, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { EmptyBlock } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import {
  useCheckDomain,
  useCheckSender,
  usePublishSandboxDns,
  useRemoveDomain,
  useSaveDomain,
  useSaveInformation,
  useStartSender,
  useTenant,
  useTldValidation,
  type DnsRecord,
  type Tenant,
} from '../api/tenant';

const STATUS: Record<string, { label: string; color: string }> = {
  pending: { label: 'Waiting for DNS', color: 'yellow' },
  verified: { label: 'Verified', color: 'green' },
  failed: { label: 'Records missing', color: 'red' },
};

function fe(error: unknown, field: string): string | undefined {
  return error instanceof HttpError ? error.fieldErrors[field]?.[0] : undefined;
}

function Records({ records, label }: { records: DnsRecord[]; label: string }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Found</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r) => (
            <Table.Tr key={`${r.type}:${r.name}`}>
              <Table.Td>{r.type}</Table.Td>
              <Table.Td>
                <Code>{r.name}</Code>
                <Text size="xs" c="dimmed">
                  {r.purpose}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Code style={{ wordBreak: 'break-all' }}>{r.value}</Code>
                  <CopyButton value={r.value}>
                    {({ copied, copy }) => (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={copy}
                        aria-label={`Copy the value of ${r.name}`}
                        leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
                      >
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Table.Td>
              <Table.Td>
                {r.ok === null ? (
                  <Text size="sm" c="dimmed">
                    Not checked
                  </Text>
                ) : r.ok ? (
                  <Badge color="green" leftSection={<IconCheck size={12} />}>
                    Found
                  </Badge>
                ) : (
                  <Badge color="red" leftSection={<IconX size={12} />}>
                    Missing
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function InformationCard({ tenant }: { tenant: Tenant }) {
  const save = useSaveInformation();
  const i = tenant.information;
  const [v, setV] = useState({
    name: i.name,
    logoUrl: i.logoUrl ?? '',
    faviconUrl: i.faviconUrl ?? '',
    primaryColor: i.primaryColor,
    secondaryColor: i.secondaryColor,
    supportEmail: tenant.id ? i.supportEmail : '',
    supportPhone: i.supportPhone ?? '',
    websiteUrl: i.websiteUrl ?? '',
  });
  const set = (k: keyof typeof v) => (e: { currentTarget: { value: string } }) => setV({ ...v, [k]: e.currentTarget.value });
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        Tenant information
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(v);
        }}
      >
        <fieldset disabled={!tenant.canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required value={v.name} onChange={set('name')} error={fe(save.error, 'name')} />
            <TextInput label="Website" placeholder="https://" value={v.websiteUrl} onChange={set('websiteUrl')} error={fe(save.error, 'websiteUrl')} />
            <TextInput label="Logo URL" placeholder="https://" value={v.logoUrl} onChange={set('logoUrl')} error={fe(save.error, 'logoUrl')} />
            <TextInput label="Favicon URL" placeholder="https://" value={v.faviconUrl} onChange={set('faviconUrl')} error={fe(save.error, 'faviconUrl')} />
            <ColorInput
              label="Primary colour"
              format="hex"
              value={v.primaryColor}
              onChange={(c) => setV({ ...v, primaryColor: c })}
              error={fe(save.error, 'primaryColor')}
            />
            <ColorInput
              label="Secondary colour"
              format="hex"
              value={v.secondaryColor}
              onChange={(c) => setV({ ...v, secondaryColor: c })}
              error={fe(save.error, 'secondaryColor')}
            />
            <TextInput label="Support e-mail" type="email" value={v.supportEmail} onChange={set('supportEmail')} error={fe(save.error, 'supportEmail')} />
            <TextInput label="Support phone" type="tel" value={v.supportPhone} onChange={set('supportPhone')} error={fe(save.error, 'supportPhone')} />
          </SimpleGrid>
          <Box mt="md" p="sm" bg="gray.0" style={{ borderRadius: 8 }} aria-label="Preview" role="img">
            <Group gap="sm">
              {v.logoUrl ? <Image src={v.logoUrl} alt="" h={28} w="auto" fit="contain" /> : null}
              <Text fw={700}>{v.name || 'Your brand'}</Text>
              <Box w={60} h={20} bg={v.primaryColor} style={{ borderRadius: 4 }} />
              <Box w={60} h={20} bg={v.secondaryColor} style={{ borderRadius: 4 }} />
            </Group>
          </Box>
          {tenant.canEdit ? (
            <Group justify="flex-end" mt="md">
              <Button type="submit" loading={save.isPending}>
                Save information
              </Button>
            </Group>
          ) : null}
        </fieldset>
      </form>
    </Card>
  );
}

function DomainCard({ tenant, businessUnitId }: { tenant: Tenant; businessUnitId: number }) {
  const d = tenant.customDomain;
  const save = useSaveDomain();
  const check = useCheckDomain();
  const remove = useRemoveDomain();
  const publish = usePublishSandboxDns();
  const [domain, setDomain] = useState(d?.domain ?? '');
  const [app, setApp] = useState(d?.appSubdomain ?? 'app');
  const [api, setApi] = useState(d?.apiSubdomain ?? 'api');
  const [token, setToken] = useState('');
  const [debounced] = useDebouncedValue(domain.trim(), 400);
  const tld = useTldValidation(debounced, businessUnitId);
  useEffect(() => {
    if (d) setDomain(d.domain);
  }, [d]);
  const tldMessage = tld.data && debounced && debounced !== d?.domain ? tld.data : null;
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Custom domain
        </Title>
        {d ? <Badge color={STATUS[d.status]!.color}>{STATUS[d.status]!.label}</Badge> : null}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Serve the app and the API on your own domain. Create the DNS records shown, then check them.
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ businessUnitId, domain: domain.trim(), appSubdomain: app.trim(), apiSubdomain: api.trim(), authToken: token.trim() || undefined });
        }}
      >
        <fieldset disabled={!tenant.canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Domain"
              placeholder="example.com"
              required
              value={domain}
              onChange={(e) => setDomain(e.currentTarget.value)}
              error={fe(save.error, 'domain') ?? (tldMessage && !tldMessage.valid ? tldMessage.message : undefined)}
              description={tldMessage?.valid ? `${tldMessage.message} (.${tldMessage.tld})` : undefined}
            />
            <TextInput
              label="DNS provider token"
              description="Optional; only its last 4 characters are kept."
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              autoComplete="off"
              placeholder={d?.authTokenHint ? `…${d.authTokenHint}` : undefined}
            />
            <TextInput label="App sub-domain" required value={app} onChange={(e) => setApp(e.currentTarget.value)} error={fe(save.error, 'appSubdomain')} />
            <TextInput label="API sub-domain" required value={api} onChange={(e) => setApi(e.currentTarget.value)} error={fe(save.error, 'apiSubdomain')} />
          </SimpleGrid>
          {tenant.canEdit ? (
            <Group justify="flex-end" mt="md">
              {d ? (
                <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate(businessUnitId)}>
                  Remove domain
                </Button>
              ) : null}
              <Button type="submit" loading={save.isPending} disabled={!domain.trim()}>
                Save domain
              </Button>
            </Group>
          ) : null}
        </fieldset>
      </form>
      {d ? (
        <Stack mt="md" gap="xs">
          <Records records={d.records} label="DNS records of the custom domain" />
          {tenant.canEdit ? (
            <Group justify="flex-end">
              {tenant.sandboxDns ? (
                <Button variant="subtle" loading={publish.isPending} onClick={() => publish.mutate(businessUnitId)}>
                  Create these records (sandbox DNS)
                </Button>
              ) : null}
              <Button variant="light" loading={check.isPending} onClick={() => check.mutate(businessUnitId)}>
                Check DNS records
              </Button>
            </Group>
          ) : null}
        </Stack>
      ) : null}
    </Card>
  );
}

function SenderCard({ tenant, businessUnitId }: { tenant: Tenant; businessUnitId: number }) {
  const s = tenant.emailSender;
  const start = useStartSender();
  const check = useCheckSender();
  const publish = usePublishSandboxDns();
  const [email, setEmail] = useState(s?.email ?? '');
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          E-mail sender
        </Title>
        {s ? <Badge color={STATUS[s.status]!.color}>{STATUS[s.status]!.label}</Badge> : null}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Send the product&apos;s e-mails from your own address once its domain proves it allows us (SPF, DKIM, return path).
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          start.mutate(email.trim());
        }}
      >
        <fieldset disabled={!tenant.canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Sender address"
              type="email"
              placeholder="notifications@example.com"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fe(start.error, 'email')}
              style={{ flex: '1 1 240px' }}
            />
            {tenant.canEdit ? (
              <Button type="submit" loading={start.isPending} disabled={!email.trim()}>
                Start verification
              </Button>
            ) : null}
          </Group>
        </fieldset>
      </form>
      {s ? (
        <Stack mt="md" gap="xs">
          <Records records={s.records} label="DNS records of the e-mail sender" />
          {tenant.canEdit ? (
            <Group justify="flex-end">
              {tenant.sandboxDns ? (
                <Button variant="subtle" loading={publish.isPending} onClick={() => publish.mutate(businessUnitId)}>
                  Create these records (sandbox DNS)
                </Button>
              ) : null}
              <Button variant="light" loading={check.isPending} onClick={() => check.mutate()}>
                Check DNS records
              </Button>
            </Group>
          ) : null}
        </Stack>
      ) : null}
    </Card>
  );
}

/** The /tenant page. */
export function TenantPage() {
  const tenant = useTenant();
  if (tenant.isLoading) return <ListSkeleton />;
  if (tenant.isError || !tenant.data)
    return <EmptyBlock title="The tenant settings could not be loaded" action={<Button onClick={() => void tenant.refetch()}>Try again</Button>} />;
  const t = tenant.data;
  return (
    <>
      <PageHeader title="Tenant settings" description="Your organization's brand, domain and e-mail sender, shown to every company of the organization." />
      {t.businessUnitId === null ? (
        <Alert color="gray" mb="md">
          This company belongs to no organization, so it uses the default branding. Tenant settings are set per organization.
        </Alert>
      ) : !t.canEdit ? (
        <Alert color="gray" mb="md">
          Only owners and administrators of the organization&apos;s companies can change these settings.
        </Alert>
      ) : null}
      {t.businessUnitId !== null ? (
        <Stack gap="lg">
          <InformationCard key={t.id ?? 'new'} tenant={t} />
          <DomainCard tenant={t} businessUnitId={t.businessUnitId} />
          <SenderCard tenant={t} businessUnitId={t.businessUnitId} />
        </Stack>
      ) : null}
    </>
  );
}
