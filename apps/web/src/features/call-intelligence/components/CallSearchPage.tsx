/**
 * /calls/search (docs/call-intelligence.md "Search"): a search box ("quoted phrases" allowed), speaker, dates and
 * minimum duration filters, results ranked with their highlighted passages (speaker and time) linking to the
 * call, paging, and the CSV export (a job: the file arrives as a notice).
 */
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { CALL_SEARCH_COUNT_CAP } from '@switchboard/contracts';
import { formatPhone } from '@switchboard/domain';
import { Link } from 'react-router';
import { errorMessages } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';
import { useCallSearch, useExportSearch, type SearchForm } from '../api/call-intelligence';
import { useSearchExportReady } from '../realtime/use-search-export-ready';
import { AiRulesPanel } from './AiRulesPanel';

const EMPTY: SearchForm = { q: '', speaker: '', from: '', to: '', minDuration: '', page: 1 };
const time = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
/** The server's highlighted passage (HTML-escaped text with <mark>) as React nodes, without injecting HTML. */
function Highlighted({ html }: { html: string }) {
  const parts = html.split(/(<mark>.*?<\/mark>)/g);
  const text = (s: string) => s.replace(/&(amp|lt|gt|quot);/g, (m) => ENTITIES[m] ?? m);
  return (
    <span>{parts.map((part, i) => (part.startsWith('<mark>') ? <mark key={i}>{text(part.slice(6, -7))}</mark> : <span key={i}>{text(part)}</span>))}</span>
  );
}

export function CallSearchPage() {
  const companyId = useCompanyId();
  const [draft, setDraft] = useState<SearchForm>(EMPTY);
  const [form, setForm] = useState<SearchForm>(EMPTY);
  const results = useCallSearch(companyId, form);
  const exporter = useExportSearch(companyId);
  useSearchExportReady();
  const error = results.error ? (errorMessages((results.error as { body?: unknown }).body)?.message ?? 'The search failed.') : null;

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Transcript search
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setForm({ ...draft, page: 1 });
        }}
      >
        <Stack gap="xs">
          <TextInput
            label="Search transcripts"
            aria-label="Search transcripts"
            placeholder='Words or "a phrase"'
            value={draft.q}
            onChange={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          />
          <Group gap="xs" wrap="wrap" align="end">
            <Select
              label="Speaker"
              data={[
                { value: '', label: 'Anyone' },
                { value: 'agent', label: 'Agent' },
                { value: 'client', label: 'Client' },
              ]}
              value={draft.speaker}
              onChange={(v) => setDraft({ ...draft, speaker: (v ?? '') as SearchForm['speaker'] })}
              w={130}
            />
            <TextInput label="From" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} w={160} />
            <TextInput label="To" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} w={160} />
            <TextInput
              label="Min. duration (s)"
              type="number"
              min={0}
              value={draft.minDuration}
              onChange={(e) => setDraft({ ...draft, minDuration: e.currentTarget.value })}
              w={140}
            />
            <Button type="submit">Search</Button>
            <Button
              variant="default"
              loading={exporter.isPending}
              onClick={() =>
                exporter.mutate(form, {
                  onSuccess: (r) => notify.show({ type: 'success', message: r.message, keepOthers: true }),
                  onError: () => notify.show({ type: 'danger', message: 'The export could not start.' }),
                })
              }
            >
              Export CSV
            </Button>
          </Group>
        </Stack>
      </form>
      {error && <Alert color="red">{error}</Alert>}
      {results.isLoading && <Loader aria-label="Loading results" />}
      {results.data && results.data.data.length === 0 && <Text c="dimmed">No transcribed call matches.</Text>}
      {results.data && results.data.data.length > 0 && (
        <Stack gap="sm" aria-label="Search results">
          <Text size="sm" c="dimmed">
            {results.data.meta.total > CALL_SEARCH_COUNT_CAP
              ? `${CALL_SEARCH_COUNT_CAP.toLocaleString('en-US')}+`
              : results.data.meta.total.toLocaleString('en-US')}{' '}
            calls
          </Text>
          {results.data.data.map((hit) => (
            <Card key={hit.call_id} withBorder padding="sm">
              <Group justify="space-between" wrap="wrap">
                <Anchor component={Link} to={`/calls/${hit.call_id}`}>
                  {formatPhone(hit.caller)} → {hit.number.label || formatPhone(hit.number.number)}
                </Anchor>
                <Group gap="xs">
                  <Text size="sm">{hit.local_started_at}</Text>
                  <Badge variant="light">{hit.answer_status}</Badge>
                  <Text size="sm">{time(hit.duration_s)}</Text>
                </Group>
              </Group>
              <Stack gap={4} mt="xs">
                {hit.passages.map((p, i) => (
                  <Text key={i} size="sm">
                    <Badge size="xs" variant="outline" mr={6}>
                      {p.speaker_label} {time(p.start)}
                    </Badge>
                    <Highlighted html={p.highlighted} />
                  </Text>
                ))}
              </Stack>
            </Card>
          ))}
          {results.data.meta.last_page > 1 && (
            <Pagination total={results.data.meta.last_page} value={form.page} onChange={(page) => setForm({ ...form, page })} />
          )}
        </Stack>
      )}
      <AiRulesPanel />
    </Stack>
  );
}
