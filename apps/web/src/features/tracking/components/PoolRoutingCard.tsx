/**
 * The pool editor's "Where calls ring" card (docs/tracking-screens.md "Pools"; docs/tracking.md "Routing
 * target"): a pool's calls ring a forward to a phone number, the routing of one of the company's numbers
 * (copied), or a number template. Required to save; the pool's numbers get that routing. A saved pool
 * without a target (from before targets existed) is flagged until one is chosen.
 */
import { Alert, Group, Radio, Select, Stack, Text, TextInput, Title, Card } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import type { DniPool, DniPoolRoutingInput, DniRoutingType } from '@switchboard/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TemplateOption } from '../api/routing';

/** The card's part of the editor's draft. */
export interface RoutingDraft {
  routing_type: DniRoutingType | null;
  /** The forward's phone number as typed. */
  routing_forward: string;
  routing_number_id: number | null;
  routing_template_id: number | null;
}

/** The draft of a saved pool's target (empty for a new pool or one without a target). */
export function routingDraftOf(pool: DniPool | null): RoutingDraft {
  const r = pool?.routing ?? null;
  return {
    routing_type: r?.type ?? null,
    routing_forward: r?.type === 'forward' && r.number ? formatPhone(r.number) : '',
    routing_number_id: r?.type === 'number' ? r.number_id : null,
    routing_template_id: r?.type === 'template' ? r.template_id : null,
  };
}

/** The routing target to send: undefined when none is chosen (the server answers 422 `routing`) or when it is the saved one. */
export function routingInputOf(d: RoutingDraft, saved: DniPool | null): DniPoolRoutingInput | undefined {
  let input: DniPoolRoutingInput | undefined;
  if (d.routing_type === 'forward') input = { type: 'forward', number: d.routing_forward };
  else if (d.routing_type === 'number' && d.routing_number_id !== null) input = { type: 'number', number_id: d.routing_number_id };
  else if (d.routing_type === 'template' && d.routing_template_id !== null) input = { type: 'template', template_id: d.routing_template_id };
  if (!input || !saved?.routing) return input;
  // Unchanged: not sent, so saving the pool does not re-apply the target over its numbers' own edits.
  const same =
    JSON.stringify(routingDraftOf(saved)) === JSON.stringify({ ...d, routing_forward: d.routing_type === 'forward' ? formatPhone(d.routing_forward) : '' });
  return same ? undefined : input;
}

/** Field errors of a target chosen but not completed (checked before sending; the server checks the rest). */
export function routingDraftErrors(d: RoutingDraft): Record<string, string[]> {
  if (d.routing_type === 'number' && d.routing_number_id === null) return { 'routing.number_id': ['Pick the number whose routing to copy.'] };
  if (d.routing_type === 'template' && d.routing_template_id === null) return { 'routing.template_id': ['Pick a number template.'] };
  if (d.routing_type === 'forward' && !d.routing_forward.trim()) return { 'routing.number': ['Type the phone number to forward to.'] };
  return {};
}

/** What a saved target reads like: "Forwards to (512) 555-0177", "Rings like (212) 555-0111 · Main line", "Number template Sales desk". */
export function routingSummary(routing: DniPool['routing']): string {
  if (!routing) return 'No routing target';
  if (routing.type === 'forward') return `Forwards to ${routing.number ? formatPhone(routing.number) : 'a phone number'}`;
  if (routing.type === 'number')
    return `Rings like ${routing.number ? formatPhone(routing.number) : 'a released number'}${routing.label ? ` · ${routing.label}` : ''}`;
  return `Number template ${routing.label || '(deleted)'}`;
}

export function PoolRoutingCard({
  draft,
  onChange,
  saved,
  numbers,
  templates,
  templatesLoading,
  errors,
}: {
  draft: RoutingDraft;
  onChange: (change: Partial<RoutingDraft>) => void;
  saved: DniPool | null;
  /** Company numbers whose routing may be copied (value: id; label as written). */
  numbers: Array<{ value: string; label: string }>;
  templates: TemplateOption[];
  templatesLoading: boolean;
  errors: Record<string, string[]>;
}) {
  const error = (path: string) => errors[path]?.[0];
  const unrouted = saved ? saved.numbers.filter((n) => !n.has_routing).length : 0;
  return (
    <Card withBorder radius="md" data-testid="pool-routing">
      <Title order={2} size="h4" mb={4}>
        Where calls ring
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Calls to this pool's numbers ring here. Numbers bought for the pool or added later get this routing.
      </Text>
      <Stack gap="sm">
        {saved && !saved.routing ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs" data-testid="pool-routing-missing">
            This pool has no routing target. Until you choose one, calls to its numbers ring your company's main number.
          </Alert>
        ) : saved?.routing ? (
          <Text size="sm" data-testid="pool-routing-summary">
            Now: <strong>{routingSummary(saved.routing)}</strong>
          </Text>
        ) : null}
        {unrouted > 0 ? (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />} p="xs" data-testid="pool-routing-unrouted">
            {unrouted} {unrouted === 1 ? 'number has' : 'numbers have'} no routing of {unrouted === 1 ? 'its' : 'their'} own: calls to{' '}
            {unrouted === 1 ? 'it' : 'them'} ring {saved?.routing ? "the pool's target" : "your company's main number"}. Saving another target gives every
            number its routing.
          </Alert>
        ) : null}
        <Radio.Group
          label="Calls to the pool's numbers"
          required
          value={draft.routing_type ?? ''}
          onChange={(v) => onChange({ routing_type: v as DniRoutingType })}
          error={error('routing') ?? error('routing.type')}
        >
          <Group gap="lg" mt={6} wrap="wrap">
            <Radio value="forward" label="Forward to a phone number" />
            <Radio value="number" label="Ring like one of my numbers" />
            <Radio value="template" label="Use a number template" />
          </Group>
        </Radio.Group>
        {draft.routing_type === 'forward' ? (
          <TextInput
            label="Phone number"
            description="Unanswered calls go to voicemail."
            placeholder="(415) 555-0100"
            required
            value={draft.routing_forward}
            onChange={(e) => onChange({ routing_forward: e.currentTarget.value })}
            error={error('routing.number')}
            maxLength={40}
            inputMode="tel"
          />
        ) : null}
        {draft.routing_type === 'number' ? (
          <Select
            label="Number whose routing to copy"
            description="Its extensions, forwards and schedule are copied to the pool's numbers."
            placeholder="Pick a number"
            required
            data={numbers}
            value={draft.routing_number_id === null ? null : String(draft.routing_number_id)}
            onChange={(v) => onChange({ routing_number_id: v ? Number(v) : null })}
            error={error('routing.number_id')}
            searchable
            nothingFoundMessage="No number"
          />
        ) : null}
        {draft.routing_type === 'template' ? (
          <Select
            label="Number template"
            placeholder={templatesLoading ? 'Loading templates…' : templates.length ? 'Pick a template' : 'No templates yet: create one under Numbers'}
            required
            data={templates.map((t) => ({ value: String(t.id), label: t.name }))}
            value={draft.routing_template_id === null ? null : String(draft.routing_template_id)}
            onChange={(v) => onChange({ routing_template_id: v ? Number(v) : null })}
            error={error('routing.template_id')}
            disabled={!templatesLoading && templates.length === 0}
            searchable
          />
        ) : null}
      </Stack>
    </Card>
  );
}
