import { Alert, Anchor, Badge, Button, Card, Code, CopyButton, Group, List, Stack, Switch, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCopy, IconExternalLink, IconQuestionMark } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatDateTime } from '../../../lib/format';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSaveTrackingSettings, useTrackingScript, useVerifyScript, type ScriptBody, type VerifyResult } from '../api/script';
import { TrackingNav } from './TrackingNav';
import { ReadOnly } from '../../../components/ReadOnly';
import { useCan } from '../../../lib/access';

/** A block of code with a labelled copy button (the whole snippet is copied, never a part of it). */
function CopyBlock({ code, label, testId }: { code: string; label: string; testId?: string }) {
  return (
    <Stack gap={4}>
      <Code block data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
      <Group>
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
            >
              {copied ? 'Copied' : label}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

const RESULT_TEXT: Record<VerifyResult['result'], { color: string; title: string; icon: ReactNode }> = {
  installed: { color: 'teal', title: 'Installed', icon: <IconCircleCheck size={18} /> },
  other_key: { color: 'orange', title: 'Another company’s script', icon: <IconAlertTriangle size={18} /> },
  not_found: { color: 'red', title: 'Not found', icon: <IconQuestionMark size={18} /> },
  timeout: { color: 'red', title: 'The page took too long', icon: <IconAlertTriangle size={18} /> },
  too_large: { color: 'red', title: 'The page is too large to check', icon: <IconAlertTriangle size={18} /> },
  http_error: { color: 'red', title: 'The page answered with an error', icon: <IconAlertTriangle size={18} /> },
  unreachable: { color: 'red', title: 'The page could not be reached', icon: <IconAlertTriangle size={18} /> },
};

/** The verification form: a page URL checked server-side, the answer in words (installed / not found / which key). */
function VerifyCard({ script }: { script: ScriptBody }) {
  const verify = useVerifyScript();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const result = verify.data;
  const check = () => {
    setError(null);
    verify.mutate(url.trim(), {
      onError: (e) => {
        if (e instanceof HttpError && e.status === 422) setError(e.fieldErrors.url?.[0] ?? 'This address cannot be checked.');
      },
    });
  };
  return (
    <Card withBorder radius="md">
      <Title order={2} size="h4" mb={4}>
        Check your website
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        We open the page the way a visitor’s browser would and look for your snippet.
        {script.last_seen_at ? (
          <>
            {' '}
            The script last reported a visit {formatDateTime(script.last_seen_at)}
            {script.last_seen_url ? ` on ${script.last_seen_url}` : ''}.
          </>
        ) : (
          ' No visit has been reported by the script yet.'
        )}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) check();
        }}
      >
        <Group align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            label="Page address"
            placeholder="https://www.example.com/contact"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={error}
            style={{ flex: 1, minWidth: 220 }}
            type="url"
          />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={verify.isPending} disabled={!url.trim()}>
            Check
          </Button>
        </Group>
      </form>
      {result ? (
        <Alert
          mt="sm"
          color={RESULT_TEXT[result.result].color}
          icon={RESULT_TEXT[result.result].icon}
          title={RESULT_TEXT[result.result].title}
          data-testid="verify-result"
        >
          <Stack gap={2}>
            <Text size="sm">{result.message}</Text>
            <Text size="xs" c="dimmed">
              {result.key_found
                ? `Company key found: ${result.key_found}${result.key_found === script.settings.key ? ' (yours)' : ` (yours is ${script.settings.key})`}. `
                : ''}
              {result.http_status ? `HTTP ${result.http_status}. ` : ''}
              Checked {formatDateTime(result.checked_at)}.
            </Text>
          </Stack>
        </Alert>
      ) : null}
    </Card>
  );
}

/** Wait-for-consent and the first-party host, saved at once (the snippets above change with them). */
function SettingsCard({ script }: { script: ScriptBody }) {
  const save = useSaveTrackingSettings();
  const [host, setHost] = useState(script.settings.first_party_host ?? '');
  const [hostError, setHostError] = useState<string | null>(null);
  useEffect(() => setHost(script.settings.first_party_host ?? ''), [script.settings.first_party_host]);
  const saveHost = () => {
    setHostError(null);
    save.mutate(
      { first_party_host: host.trim() ? host.trim() : null },
      {
        onSuccess: () => notify.success(host.trim() ? `The snippet now loads from ${host.trim()}.` : 'The snippet loads from the product again.'),
        onError: (e) => {
          if (e instanceof HttpError && e.status === 422) setHostError(e.fieldErrors.first_party_host?.[0] ?? 'Not a host name.');
        },
      },
    );
  };
  return (
    <Card withBorder radius="md">
      <Title order={2} size="h4" mb="sm">
        Privacy and cookies
      </Title>
      <Stack gap="md">
        <Switch
          label="Wait for consent"
          description="Swap nothing and store nothing until the page reports the visitor’s consent (see Consent mode below)."
          checked={script.settings.wait_for_consent}
          disabled={save.isPending}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            save.mutate(
              { wait_for_consent: on },
              { onSuccess: () => notify.success(on ? 'The script now waits for consent.' : 'The script no longer waits for consent.') },
            );
          }}
        />
        <Group align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            label="Your own tracking subdomain"
            description="Optional. e.g. calls.example.com, pointed at us with a CNAME record (see below)."
            placeholder="calls.example.com"
            value={host}
            onChange={(e) => setHost(e.currentTarget.value)}
            error={hostError}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button
            mt={{ base: 0, xs: 46 }}
            variant="default"
            onClick={saveHost}
            loading={save.isPending}
            disabled={host.trim() === (script.settings.first_party_host ?? '')}
          >
            Save subdomain
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The tracking script `/tracking/script` (spec 002 "DNI" tracking script and script verification): the
 * snippet to paste with a copy button, install instructions (any site, WordPress, tag managers), consent
 * mode, the first-party cookie subdomain, and the verification form. docs/tracking-screens.md "Script".
 */
export function ScriptPage() {
  const script = useTrackingScript();
  return (
    <>
      <PageHeader title="Tracking script" description="Paste one line into your website so visitors see tracking numbers." />
      <TrackingNav />
      {script.isPending ? (
        <ListSkeleton rows={3} height={120} />
      ) : script.isError ? (
        <EmptyCard
          title="Error loading the tracking script"
          description="Please try again later"
          action={<Button onClick={() => void script.refetch()}>Retry</Button>}
        />
      ) : (
        <ScriptBodyView script={script.data} />
      )}
    </>
  );
}

function ScriptBodyView({ script }: { script: ScriptBody }) {
  const canManage = useCan('tracking.manage');
  const host = script.settings.first_party_host;
  let productHost = '';
  try {
    productHost = new URL(script.script_url, window.location.origin).host;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Group justify="space-between" mb="xs" wrap="wrap">
          <Title order={2} size="h4">
            Your snippet
          </Title>
          <Group gap="xs">
            <Badge variant="light" color={script.last_seen_at ? 'teal' : 'gray'}>
              {script.last_seen_at ? 'Receiving visits' : 'No visits yet'}
            </Badge>
            <Badge variant="outline" color="gray" data-testid="company-key">
              Key {script.settings.key}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Paste it once, just before <Code>{'</head>'}</Code>, on every page of your site. It loads without slowing the page and swaps the numbers of your
          tracking pools wherever they are written, including in <Code>tel:</Code> links.
        </Text>
        <CopyBlock code={script.snippet} label="Copy snippet" testId="script-snippet" />
        {script.demo_url ? (
          <Text size="sm" mt="sm">
            Try it first on the{' '}
            <Anchor href={script.demo_url} target="_blank" rel="noreferrer" data-testid="demo-link">
              demo website <IconExternalLink size={12} />
            </Anchor>{' '}
            (open it with <Code>?utm_source=google&amp;utm_medium=cpc&amp;gclid=TEST</Code> to be a Google Ads visitor).
          </Text>
        ) : null}
      </Card>

      <Card withBorder radius="md">
        <Title order={2} size="h4" mb="sm">
          How to install
        </Title>
        <Tabs defaultValue="html" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="html">Any website</Tabs.Tab>
            <Tabs.Tab value="wordpress">WordPress</Tabs.Tab>
            <Tabs.Tab value="gtm">Google Tag Manager</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="html" pt="sm">
            <List size="sm" type="ordered" spacing={4}>
              <List.Item>Open your site’s page template (the part shared by every page).</List.Item>
              <List.Item>
                Paste the snippet just before <Code>{'</head>'}</Code> and publish.
              </List.Item>
              <List.Item>Write your number on the page as usual; the script replaces it for visitors of a pool.</List.Item>
              <List.Item>Check a page with the form below.</List.Item>
            </List>
          </Tabs.Panel>
          <Tabs.Panel value="wordpress" pt="sm">
            <List size="sm" type="ordered" spacing={4}>
              <List.Item>Install a header-and-footer plugin (e.g. WPCode), or edit your theme’s header.php.</List.Item>
              <List.Item>Paste the snippet in the header section for the whole site and save.</List.Item>
              <List.Item>Clear the site’s cache plugin, then check a page below.</List.Item>
            </List>
          </Tabs.Panel>
          <Tabs.Panel value="gtm" pt="sm">
            <List size="sm" type="ordered" spacing={4}>
              <List.Item>Add a tag of type Custom HTML and paste the snippet.</List.Item>
              <List.Item>Trigger it on All Pages (Initialization, so it runs early), then submit and publish the container.</List.Item>
              <List.Item>With a consent platform, fire the consent call below from its “consent given” trigger instead of blocking the tag.</List.Item>
            </List>
          </Tabs.Panel>
        </Tabs>
      </Card>

      <VerifyCard script={script} />

      {/* The script's settings change with `tracking.manage`; reporting reads them (docs/permissions.md). */}
      <ReadOnly when={!canManage}>
        <SettingsCard script={script} />
      </ReadOnly>

      <Card withBorder radius="md">
        <Title order={2} size="h4" mb={4}>
          Consent mode
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {script.settings.wait_for_consent
            ? 'On: the script shows your own number and stores nothing until the page calls this line.'
            : 'Off: the script starts at once. Turn on “Wait for consent” above if your visitors must agree to tracking first.'}{' '}
          Call it when the visitor accepts, for example from your consent platform’s callback (Cookiebot’s <Code>CookiebotOnAccept</Code>, OneTrust’s{' '}
          <Code>OptanonWrapper</Code>, a Google consent-mode update). Calling it before the script loads is fine: it is remembered.
        </Text>
        <CopyBlock code={script.consent_snippet} label="Copy consent call" testId="consent-snippet" />
      </Card>

      <Card withBorder radius="md">
        <Title order={2} size="h4" mb={4}>
          First-party cookie on your own subdomain
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Browsers cut short cookies that scripts write and cookies of other sites, which loses returning visitors. Served from a subdomain of your own site,
          the visitor cookie is set by our answer as a first-party cookie and lasts.
        </Text>
        <List size="sm" type="ordered" spacing={4}>
          <List.Item>
            At your DNS provider, add a CNAME record: <Code>{host ?? 'calls.example.com'}</Code> → <Code>{productHost || 'this product’s host'}</Code>.
          </List.Item>
          <List.Item>Enter the subdomain under “Your own tracking subdomain” above and save; the snippet then loads from it.</List.Item>
          <List.Item>Replace the snippet on your site with the new one and check a page.</List.Item>
        </List>
        {host ? (
          <Alert color="blue" mt="sm" p="xs">
            The snippet loads from {host}. Until its CNAME record points at us, visitors won’t see tracking numbers.
          </Alert>
        ) : null}
      </Card>
    </Stack>
  );
}
