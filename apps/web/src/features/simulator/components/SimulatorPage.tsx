import { Alert, Button, Card, Grid, Select, TextInput } from '@mantine/core';
import { formatPhone, parsePhone } from '@switchboard/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyCard } from '../../../components/EmptyBlock';
import { ListSkeleton } from '../../../components/ListSkeleton';
import { PageHeader } from '../../../components/PageHeader';
import type { SimulatorNumber } from '../types';
import { CallPanel } from './CallPanel';
import { TextPanel } from './TextPanel';
import { HandsetCallsPanel } from './HandsetCallsPanel';
import { FaxPanel } from './FaxPanel';
import { ScriptPanel } from './ScriptPanel';

/** A valid outside number to start with (a 202 number; 555-01xx numbers are reserved for fiction). */
const DEFAULT_OUTSIDE_NUMBER = '+12025550143';

interface SimulatorPageProps {
  numbers: SimulatorNumber[] | undefined;
  loading: boolean;
}

/**
 * Phone simulator: be an outside caller or texter on the sandbox carrier. Call a company number
 * choosing what each forward does, or text it and read the replies.
 */
export function SimulatorPage({ numbers, loading }: SimulatorPageProps) {
  const [outside, setOutside] = useState(DEFAULT_OUTSIDE_NUMBER);
  const [targetId, setTargetId] = useState<string | null>(null);
  const from = parsePhone(outside);
  const list = numbers ?? [];
  const target = list.find((n) => String(n.id) === targetId) ?? list[0] ?? null;

  return (
    <>
      <PageHeader
        title="Phone simulator"
        description="Be an outside caller or texter. The sandbox carrier drives your numbers exactly as the real carrier would."
      />
      {loading ? (
        <ListSkeleton rows={2} height={120} />
      ) : list.length === 0 ? (
        <EmptyCard
          title="No company numbers to call"
          description="Buy a number first, then come back to call or text it."
          action={
            <Button component={Link} to="/numbers">
              Go to Numbers
            </Button>
          }
        />
      ) : (
        <Grid gap="md">
          <Grid.Col span={12}>
            <Card withBorder radius="md" padding="lg">
              <Grid gap="sm">
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <TextInput
                    label="Your outside phone number"
                    value={outside}
                    onChange={(e) => setOutside(e.currentTarget.value)}
                    error={from ? undefined : 'Enter a valid phone number'}
                    inputMode="tel"
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Select
                    label="Company number"
                    data={list.map((n) => ({ value: String(n.id), label: `${formatPhone(n.number)}${n.label ? ` · ${n.label}` : ''}` }))}
                    value={target ? String(target.id) : null}
                    onChange={setTargetId}
                    allowDeselect={false}
                  />
                </Grid.Col>
              </Grid>
              <Alert variant="light" mt="md" icon={<IconInfoCircle size={18} />}>
                Calls and texts go through the product's own carrier webhooks. Watch them appear in Activity and the Inbox.
              </Alert>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <CallPanel key={target?.id} from={from} target={target} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <ScriptPanel />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TextPanel from={from} target={target} />
          </Grid.Col>
          <Grid.Col span={12}>
            <HandsetCallsPanel />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <FaxPanel from={from} target={target} />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
