import { Anchor, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconArrowLeft, IconHash, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import type { CustomFieldAttribute } from '../../../components/CustomFieldValuesEditor';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { ReadOnly } from '../../../components/ReadOnly';
import { useCan } from '../../../lib/access';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useCompanyNumbers } from '../api/get-numbers';
import { useReleaseNumbers } from '../api/release-numbers';
import { useRotateNumber } from '../api/rotate-number';
import { trackJob } from '../realtime/number-jobs';
import type { GreetingOption, PhoneNumber } from '../types';
import { NumberCustomFieldsCard } from './NumberCustomFieldsCard';
import { NumberCallSettingsCard } from './NumberCallSettingsCard';
import { NumberDetailsCard } from './NumberDetailsCard';
import { NumberEditor } from './NumberEditor';
import { OverrideCard } from './OverrideCard';
import { TriggersCard } from './TriggersCard';

function NumberActions({ number }: { number: PhoneNumber }) {
  const companyId = useCompanyId();
  const navigate = useNavigate();
  const rotate = useRotateNumber(companyId);
  const release = useReleaseNumbers();
  const [confirm, setConfirm] = useState<'rotate' | 'release' | null>(null);
  // Swapping and releasing change what the company pays for: `numbers.purchase` (docs/permissions.md).
  const canPurchase = useCan('numbers.purchase');
  const shown = formatPhone(number.number);
  const run = () => {
    if (confirm === 'rotate') {
      rotate.mutate(number.id, {
        onSuccess: (result) => {
          notify.success(
            `${formatPhone(result.previous_number)} was replaced by ${formatPhone(result.data.number)}. Routing and history stay.`,
            result.message,
          );
          setConfirm(null);
        },
      });
    } else if (confirm === 'release') {
      release.mutate([number.id], {
        onSuccess: (result) => {
          trackJob(result.batchId, 'release', 1);
          notify.success(result.message);
          setConfirm(null);
          void navigate('/numbers');
        },
      });
    }
  };
  if (!canPurchase) return null;
  return (
    <>
      <Group gap="xs">
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setConfirm('rotate')}>
          Swap for a new number
        </Button>
        <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirm('release')}>
          Release
        </Button>
      </Group>
      <ConfirmModal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === 'rotate' ? `Swap ${shown} for a new number?` : `Release ${shown}?`}
        confirmLabel={confirm === 'rotate' ? 'Swap for a new number' : 'Release number'}
        danger={confirm === 'release'}
        loading={rotate.isPending || release.isPending}
        onConfirm={run}
      >
        {confirm === 'rotate'
          ? 'You get another number in the same area code; this one goes back to the carrier. Routing, schedule, triggers and history move to the new number.'
          : 'The number goes back to the carrier and stops receiving calls and texts. Its history stays in Activity. This cannot be undone.'}
      </ConfirmModal>
    </>
  );
}

/**
 * Number page `/numbers/:numberId`: the routing editor, with the number's details, manual
 * open/closed override, custom fields, triggers, "Swap for a new number" (rotate: POST
 * /api/numbers/{id}/rotate; the spec names no label) and release. `greetings` (the company's
 * greetings) and `attributes` (its Number custom fields) are handed in by the app.
 */
export function NumberEditorPage({ greetings = [], attributes = [] }: { greetings?: GreetingOption[]; attributes?: CustomFieldAttribute[] }) {
  const { numberId } = useParams();
  const numbers = useCompanyNumbers();
  const number = numbers.data?.data.find((n) => String(n.id) === numberId);
  // A role without `numbers.manage` (reporting, user) reads the setup: every control is disabled, nothing is saved.
  const canManage = useCan('numbers.manage');
  const canSetFields = useCan('settings.manage');

  return (
    <>
      <Anchor component={Link} to="/numbers" size="sm" mb="sm" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} /> All numbers
      </Anchor>
      {numbers.isPending || (!number && numbers.isFetching) ? (
        <ListSkeleton rows={3} height={120} />
      ) : number ? (
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <div>
              <Title order={1} size="h2" ff="monospace" data-testid="editor-number">
                {formatPhone(number.number)}
              </Title>
              <Text c="dimmed" size="sm">
                {number.label ? `${number.label} · ` : ''}
                {number.type_label} · {number.route_type} · {number.schedule_label || 'No schedule'}
              </Text>
            </div>
            <NumberActions number={number} />
          </Group>
          {!canManage ? (
            <Text size="sm" c="dimmed" data-testid="number-read-only">
              You can see this number's setup; an owner or administrator changes it.
            </Text>
          ) : null}
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ReadOnly when={!canManage}>
                <NumberEditor key={`${number.id}:${number.number}`} number={number} greetings={greetings} />
              </ReadOnly>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack gap="md">
                <ReadOnly when={!canManage}>
                  <OverrideCard number={number} />
                </ReadOnly>
                <NumberDetailsCard numberId={number.id} />
                <NumberCallSettingsCard numberId={number.id} canEdit={canManage} />
                <ReadOnly when={!canSetFields}>
                  <NumberCustomFieldsCard numberId={number.id} attributes={attributes} />
                </ReadOnly>
                <ReadOnly when={!canManage}>
                  <TriggersCard numberId={number.id} />
                </ReadOnly>
              </Stack>
            </Grid.Col>
          </Grid>
        </Stack>
      ) : (
        <EmptyCard
          icon={<IconHash />}
          title="Number not found"
          description="It may have been released or belong to another company. Pick it from your numbers list."
          action={
            <Button component={Link} to="/numbers">
              Back to numbers
            </Button>
          }
        />
      )}
    </>
  );
}
