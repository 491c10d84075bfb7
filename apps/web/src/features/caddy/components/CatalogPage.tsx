/**
 * `/caddy/catalog`: numbers on offer (docs/consumer-area.md "Numbers"): search by area code or random, then add one
 * (active at once) or, with `?replace=<id>`, replace one of the person's numbers (the old one is released). Both are
 * confirmed first; the plan's limit is said before, and the server's clear refusal shown if it is reached.
 */
import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { CADDY_PLAN_LIMITS } from '@switchboard/contracts';
import { IconArrowsShuffle, IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { useCaddyProfile } from '../api/account';
import { CaddyError } from '../api/client';
import { useAddNumber, useCaddyNumbers, useCatalog, useReplaceNumber, type CatalogNumber } from '../api/numbers';
import { CaddyPage, Empty, FormError, LoadFailed, Loading } from './ui';

/** The catalogue page. */
export function CatalogPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const replaceId = Number(params.get('replace')) || null;
  const numbers = useCaddyNumbers();
  const profile = useCaddyProfile();
  const replacing = replaceId ? numbers.data?.find((n) => n.id === replaceId) : undefined;
  const [areaCode, setAreaCode] = useState('');
  const [search, setSearch] = useState<{ areaCode: string; seed: number } | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [chosen, setChosen] = useState<CatalogNumber | null>(null);
  const catalog = useCatalog(search);
  const add = useAddNumber();
  const replace = useReplaceNumber();
  const act = replacing ? replace : add;
  const plan = profile.data ? CADDY_PLAN_LIMITS[profile.data.plan] : null;
  const activeCount = (numbers.data ?? []).filter((n) => n.isActive).length;
  const atLimit = !replacing && plan !== null && activeCount >= plan.numbers;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = areaCode.trim();
    if (!/^[2-9]\d{2}$/.test(code)) {
      setInvalid('Enter a 3-digit area code, such as 212.');
      return;
    }
    setInvalid(null);
    setSearch({ areaCode: code, seed: Date.now() });
  };
  const random = () => {
    setInvalid(null);
    setSearch({ areaCode: 'random', seed: Date.now() });
  };
  const confirm = () => {
    if (!chosen) return;
    const done = (r: { message: string; data: { nationalNumber: string } }) => {
      setChosen(null);
      notify.success(r.message);
      void navigate('/caddy/numbers', { state: { added: r.data.nationalNumber } });
    };
    if (replacing) replace.mutate({ id: replacing.id, number: chosen.number }, { onSuccess: done });
    else add.mutate(chosen.number, { onSuccess: done });
  };
  const areaError = invalid ?? (catalog.error instanceof CaddyError ? catalog.error.field('areaCode') : undefined);
  const welcome = (location.state as { welcome?: boolean } | null)?.welcome;

  return (
    <CaddyPage
      title={replacing ? 'Replace a number' : 'Get a number'}
      lead={replacing ? `Pick the number that takes the place of ${replacing.nationalNumber}.` : 'Pick a number in the area code you like.'}
    >
      {welcome ? (
        <Alert color="teal" data-testid="caddy-welcome">
          Welcome to Caddy! Pick your number to start calling and texting.
        </Alert>
      ) : null}
      {atLimit && plan ? (
        <Alert color="yellow" data-testid="caddy-at-limit">
          Your {plan.label} plan includes {plan.numbers} active number{plan.numbers === 1 ? '' : 's'}, and you have {activeCount}. Make one inactive or replace
          one from My numbers to take another.
        </Alert>
      ) : null}
      <Card withBorder radius="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Group align="flex-start" gap="sm" wrap="nowrap">
              <TextInput
                label="Area code"
                placeholder="212"
                value={areaCode}
                onChange={(e) => setAreaCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 3))}
                inputMode="numeric"
                maxLength={3}
                error={areaError}
                style={{ flex: 1 }}
              />
              <Button type="submit" mt={25} leftSection={<IconSearch size={16} aria-hidden />} loading={catalog.isFetching && search?.areaCode !== 'random'}>
                Search
              </Button>
            </Group>
            <Button
              variant="light"
              onClick={random}
              leftSection={<IconArrowsShuffle size={16} aria-hidden />}
              loading={catalog.isFetching && search?.areaCode === 'random'}
            >
              Show random numbers
            </Button>
          </Stack>
        </form>
      </Card>

      {search === null ? (
        <Text size="sm" c="dimmed">
          Search an area code, or let us suggest numbers.
        </Text>
      ) : catalog.isPending ? (
        <Loading rows={4} height={56} label="Looking for numbers" />
      ) : catalog.isError ? (
        areaError ? null : (
          <LoadFailed what="the numbers on offer" error={catalog.error} onRetry={() => void catalog.refetch()} />
        )
      ) : catalog.data.length === 0 ? (
        <Empty title={search.areaCode === 'random' ? 'No numbers on offer right now' : `No numbers on offer in ${search.areaCode}`}>
          Try another area code, or random numbers.
        </Empty>
      ) : (
        <>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Numbers on offer">
            {catalog.data.map((n) => (
              <Card component="li" key={n.number} withBorder radius="md" padding="sm" data-testid="caddy-offer">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text fw={600}>{n.nationalNumber}</Text>
                    <Text size="xs" c="dimmed">
                      {[n.locality, n.region].filter(Boolean).join(', ') || 'United States'}
                    </Text>
                  </Stack>
                  <Button size="sm" variant="light" onClick={() => setChosen(n)} disabled={atLimit} aria-label={`Choose ${n.nationalNumber}`}>
                    Choose
                  </Button>
                </Group>
              </Card>
            ))}
          </Stack>
          <Button variant="subtle" onClick={() => setSearch({ ...search, seed: Date.now() })}>
            Show other numbers
          </Button>
        </>
      )}

      <Modal
        opened={chosen !== null}
        onClose={() => {
          setChosen(null);
          act.reset();
        }}
        title={replacing ? 'Replace your number?' : 'Take this number?'}
      >
        {chosen ? (
          <Stack gap="sm">
            <Text size="xl" fw={700} ta="center">
              {chosen.nationalNumber}
            </Text>
            <Text size="sm">
              {replacing
                ? `${replacing.nationalNumber} is released now and cannot be got back. ${chosen.nationalNumber} takes its place${replacing.isActive ? ', active' : ' and its removal date'}.`
                : `It becomes active at once and counts toward your ${plan?.label ?? ''} plan (${plan?.numbers ?? 1} active number${(plan?.numbers ?? 1) === 1 ? '' : 's'}).`}
            </Text>
            <FormError error={act.error} />
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  setChosen(null);
                  act.reset();
                }}
              >
                Cancel
              </Button>
              <Button onClick={confirm} loading={act.isPending} color={replacing ? 'red' : undefined}>
                {replacing ? 'Replace number' : 'Take this number'}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </CaddyPage>
  );
}
