/**
 * /integrations (spec 002 §7 "Integrations"; docs/integrations.md; issue 24 "Screens"): a card per provider with its
 * state (not connected, connected as whom, needs reconnect, last delivery); connecting through the provider's consent
 * page (the sandbox's offline) and finishing with the lookups; GA4 and ADF forms; settings; the delivery log with
 * retry and replay; disconnect (confirmed). The provider sends the browser back here with `?connected={id}` (the
 * set-up dialog opens) or `?error=state|denied|refused|provider`.
 */
import { Alert, Badge, Button, Card, Group, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AdIntegration, OAuthProvider } from '@switchboard/contracts';
import { IconChevronDown, IconPlugConnected } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { EmptyCard, LoadError } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import { formatStamp } from '../../../lib/format';
import { useDisconnect, useProviderCards, useStartConnect, useSync, type ProviderCard } from '../api/integrations';
import { DELIVERY_STATE, PROVIDER_BLURB, STATE_LABEL } from '../labels';
import { DeliveryLog } from './DeliveryLog';
import { AdfModal, Ga4Modal, OAuthSetupModal, SettingsModal } from './IntegrationModals';

const RETURN_ERRORS: Record<string, string> = {
  state: 'The sign-in with the provider could not be verified (it expired or was started by someone else). Start connecting again.',
  denied: 'Access was not granted at the provider. Connect again and allow access.',
  refused: 'The provider refused the connection. Check the account has access, then try again.',
  provider: 'The provider could not be reached. Try again in a moment.',
};

/** The integration a card shows: a live one first, else the last disconnected one. */
function currentOf(card: ProviderCard): AdIntegration | null {
  return card.integrations.find((i) => i.state !== 'inactive') ?? card.integrations[0] ?? null;
}

type Dialog =
  | { kind: 'setup'; card: ProviderCard; integration: AdIntegration }
  | { kind: 'settings'; card: ProviderCard; integration: AdIntegration }
  | { kind: 'ga4' }
  | { kind: 'adf' }
  | { kind: 'disconnect'; card: ProviderCard; integration: AdIntegration };

export function IntegrationsPage() {
  const cards = useProviderCards();
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const [returnError, setReturnError] = useState<string | null>(null);
  const connect = useStartConnect();
  const sync = useSync();
  const disconnect = useDisconnect();
  const list = cards.data?.data ?? [];

  // Back from the provider: open the set-up dialog of the new connection, or say what went wrong; then clean the address.
  const connectedId = Number(params.get('connected'));
  const errorCode = params.get('error');
  useEffect(() => {
    if (!errorCode && !connectedId) return;
    if (errorCode) {
      setReturnError(RETURN_ERRORS[errorCode] ?? RETURN_ERRORS.provider!);
      setParams({}, { replace: true });
      return;
    }
    if (!cards.data) return;
    for (const card of cards.data.data) {
      const integration = card.integrations.find((i) => i.id === connectedId);
      if (integration) setDialog({ kind: integration.state === 'connected' ? 'setup' : 'settings', card, integration });
    }
    setParams({}, { replace: true });
  }, [connectedId, errorCode, cards.data, setParams]);

  const logIntegration = list.flatMap((c) => c.integrations).find((i) => i.id === logOf) ?? null;

  const start = (card: ProviderCard) => {
    if (card.provider === 'ga4') setDialog({ kind: 'ga4' });
    else if (card.provider === 'adf') setDialog({ kind: 'adf' });
    else connect.mutate(card.provider as OAuthProvider);
  };

  return (
    <>
      <PageHeader
        title="Integrations"
        description="Send every tracked call to the ad platforms, analytics and CRMs that brought it, so their bidding and reports learn from real calls."
      />
      {cards.data?.mode === 'sandbox' ? (
        <Alert color="blue" mb="md" title="Sandbox mode">
          Connections go to built-in stand-ins of each provider: nothing leaves this server.
        </Alert>
      ) : null}
      {returnError ? (
        <Alert color="red" mb="md" title="Not connected" withCloseButton closeButtonLabel="Dismiss" onClose={() => setReturnError(null)} role="alert">
          {returnError}
        </Alert>
      ) : null}
      {cards.isPending ? (
        <ListSkeleton rows={3} height={140} />
      ) : cards.isError ? (
        <Card withBorder radius="md">
          <LoadError what="integrations" onRetry={() => void cards.refetch()} />
        </Card>
      ) : list.length === 0 ? (
        <EmptyCard icon={<IconPlugConnected />} title="No integrations available" description="This server offers no integrations." />
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {list.map((card) => {
              const integration = currentOf(card);
              const state = integration?.state ?? 'none';
              const live = integration && integration.state !== 'inactive' && integration.state !== 'pending' ? integration : null;
              return (
                <Card key={card.provider} withBorder radius="md" data-testid="integration-card" data-provider={card.provider} data-state={state}>
                  <Stack gap="xs" h="100%">
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <Title order={2} size="h4">
                        {card.name}
                      </Title>
                      {card.available ? (
                        <Badge color={STATE_LABEL[state].color} variant="light" style={{ flexShrink: 0 }} data-testid="integration-state">
                          {STATE_LABEL[state].label}
                        </Badge>
                      ) : (
                        <Badge color="gray" variant="outline" style={{ flexShrink: 0 }}>
                          Not available
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" c="dimmed">
                      {PROVIDER_BLURB[card.provider]}
                    </Text>
                    {live ? (
                      <Stack gap={2}>
                        <Text size="sm" data-testid="connected-as">
                          Connected as <b>{live.account_name ?? live.external_account_id ?? live.name}</b>
                          {live.connected_by_name ? ` by ${live.connected_by_name}` : ''}
                        </Text>
                        <Text size="xs" c="dimmed" data-testid="last-delivery">
                          {live.last_delivery_at
                            ? `Last delivery ${formatStamp(live.last_delivery_at)}${live.last_delivery_result ? ` · ${DELIVERY_STATE[live.last_delivery_result as keyof typeof DELIVERY_STATE]?.label ?? live.last_delivery_result}` : ''}`
                            : 'Nothing sent yet'}
                        </Text>
                        {live.state === 'needs_reconnect' ? (
                          <Text size="xs" c="red">
                            {card.name} no longer accepts this connection{live.last_error ? ` (${live.last_error})` : ''}. Deliveries wait until you reconnect.
                          </Text>
                        ) : live.last_error ? (
                          <Text size="xs" c="red" lineClamp={2}>
                            {live.last_error}
                          </Text>
                        ) : null}
                      </Stack>
                    ) : null}
                    <Group gap="xs" mt="auto" pt="xs">
                      {!card.available ? null : !live ? (
                        <Button
                          size="sm"
                          onClick={() => start(card)}
                          loading={connect.isPending && connect.variables === card.provider}
                          aria-label={`Connect ${card.name}`}
                        >
                          Connect
                        </Button>
                      ) : (
                        <>
                          {live.state === 'connected' ? (
                            <Button size="sm" onClick={() => setDialog({ kind: 'setup', card, integration: live })} aria-label={`Finish setup of ${card.name}`}>
                              Finish setup
                            </Button>
                          ) : null}
                          {live.state === 'needs_reconnect' ? (
                            <Button size="sm" color="red" onClick={() => start(card)} aria-label={`Reconnect ${card.name}`}>
                              Reconnect
                            </Button>
                          ) : null}
                          <Button
                            size="sm"
                            variant={logOf === live.id ? 'filled' : 'light'}
                            onClick={() => setLogOf(logOf === live.id ? null : live.id)}
                            aria-label={`Delivery log of ${card.name}`}
                            aria-expanded={logOf === live.id}
                          >
                            Delivery log
                          </Button>
                          <Menu position="bottom-end" withinPortal>
                            <Menu.Target>
                              <Button size="sm" variant="default" rightSection={<IconChevronDown size={14} />} aria-label={`More for ${card.name}`}>
                                More
                              </Button>
                            </Menu.Target>
                            <Menu.Dropdown>
                              <Menu.Item onClick={() => setDialog({ kind: 'settings', card, integration: live })}>Settings</Menu.Item>
                              {card.auth === 'oauth' && live.state === 'active' ? (
                                <Menu.Item onClick={() => setDialog({ kind: 'setup', card, integration: live })}>Change account…</Menu.Item>
                              ) : null}
                              {card.auth === 'oauth' ? (
                                <Menu.Item onClick={() => sync.mutate(card.provider as OAuthProvider)}>Refresh account details</Menu.Item>
                              ) : null}
                              <Menu.Divider />
                              <Menu.Item color="red" onClick={() => setDialog({ kind: 'disconnect', card, integration: live })}>
                                Disconnect…
                              </Menu.Item>
                            </Menu.Dropdown>
                          </Menu>
                        </>
                      )}
                    </Group>
                  </Stack>
                </Card>
              );
            })}
          </SimpleGrid>
          {logIntegration ? <DeliveryLog key={logIntegration.id} integration={logIntegration} onClose={() => setLogOf(null)} /> : null}
        </Stack>
      )}
      {dialog?.kind === 'setup' ? <OAuthSetupModal card={dialog.card} integration={dialog.integration} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'settings' ? <SettingsModal card={dialog.card} integration={dialog.integration} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'ga4' ? <Ga4Modal onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'adf' ? <AdfModal onClose={() => setDialog(null)} /> : null}
      <ConfirmModal
        opened={dialog?.kind === 'disconnect'}
        title={dialog?.kind === 'disconnect' ? `Disconnect ${dialog.card.name}` : 'Disconnect'}
        confirmLabel="Disconnect"
        loading={disconnect.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() =>
          dialog?.kind === 'disconnect' &&
          disconnect.mutate(dialog.integration, {
            onSuccess: () => {
              if (logOf === dialog.integration.id) setLogOf(null);
              setDialog(null);
            },
          })
        }
      >
        {dialog?.kind === 'disconnect'
          ? dialog.card.auth === 'oauth'
            ? `Stop sending to ${dialog.card.name} and revoke this app’s access? The settings and the delivery log are kept; connect again to resume.`
            : `Remove ${dialog.integration.name}? Nothing more is sent, and its delivery log is removed with it.`
          : null}
      </ConfirmModal>
    </>
  );
}
