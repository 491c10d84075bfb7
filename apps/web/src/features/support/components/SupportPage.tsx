/**
 * The support form (spec 002 "Support"; docs/workspace.md "Support"): a message, up to five attachments, an optional
 * call back at a number, and the page the person needs help with (prefilled from `?page=`, else the page they came
 * from in the app, else this one). Sent tickets are listed below with where they went.
 */
import { Alert, Badge, Button, Card, Checkbox, FileInput, Group, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconCheck, IconPaperclip } from '@tabler/icons-react';
import { SUPPORT_ATTACHMENTS_MAX } from '@switchboard/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { HttpError } from '../../../lib/http';
import { useTenantConfig } from '../../../lib/tenant';
import { useMySupportTickets, useSendSupportTicket, type SupportForm } from '../api/support';
import { formatDateTime } from '../../../lib/dates';

/** The page a ticket is about: `?page=`, else the referring page of this app, else this page. */
function initialPageUrl(param: string | null): string {
  if (param) return param;
  if (document.referrer && new URL(document.referrer).origin === window.location.origin) return document.referrer;
  return window.location.href;
}

/** The /support page. */
export function SupportPage() {
  const [params] = useSearchParams();
  const tenant = useTenantConfig();
  const send = useSendSupportTicket();
  const tickets = useMySupportTickets();
  const empty = (): SupportForm => ({
    message: '',
    callbackRequested: false,
    callbackNumber: '',
    pageUrl: initialPageUrl(params.get('page')),
    attachments: [],
  });
  const [form, setForm] = useState<SupportForm>(empty);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const fe = (f: string) => (send.error instanceof HttpError ? send.error.fieldErrors[f]?.[0] : undefined);

  return (
    <>
      <PageHeader title="Contact support" description={tenant.data ? `Write to ${tenant.data.name} support (${tenant.data.supportEmail}).` : undefined} />
      {sentMessage ? (
        <Alert color="green" icon={<IconCheck />} mb="md" role="status" withCloseButton onClose={() => setSentMessage(null)}>
          {sentMessage}
        </Alert>
      ) : null}
      <Card withBorder maw={720}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate(form, {
              onSuccess: (r) => {
                setSentMessage(r.message);
                setForm(empty());
              },
            });
          }}
        >
          <Stack>
            <Textarea
              label="How can we help?"
              required
              autosize
              minRows={5}
              maxLength={5000}
              value={form.message}
              onChange={(e) => setForm({ ...form, message: e.currentTarget.value })}
              error={fe('message')}
            />
            <FileInput
              label="Attachments"
              description={`Screenshots or files, at most ${SUPPORT_ATTACHMENTS_MAX} of 10 MB each.`}
              placeholder="Choose files"
              multiple
              clearable
              leftSection={<IconPaperclip size={16} />}
              value={form.attachments}
              onChange={(files) => setForm({ ...form, attachments: files.slice(0, SUPPORT_ATTACHMENTS_MAX) })}
              error={fe('attachments')}
            />
            <TextInput
              label="Page"
              description="The page you need help with."
              value={form.pageUrl}
              onChange={(e) => setForm({ ...form, pageUrl: e.currentTarget.value })}
              error={fe('page_url')}
            />
            <Checkbox
              label="Call me back"
              checked={form.callbackRequested}
              onChange={(e) => setForm({ ...form, callbackRequested: e.currentTarget.checked })}
            />
            {form.callbackRequested ? (
              <TextInput
                label="Callback number"
                type="tel"
                required
                autoComplete="tel"
                value={form.callbackNumber}
                onChange={(e) => setForm({ ...form, callbackNumber: e.currentTarget.value })}
                error={fe('callback_number')}
              />
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={send.isPending} disabled={!form.message.trim()}>
                Send to support
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {tickets.data?.length ? (
        <Stack mt="xl" maw={720} gap="sm">
          <Title order={2} size="h4">
            Your requests
          </Title>
          {tickets.data.map((t) => (
            <Card key={t.id} withBorder padding="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={600}>Request #{t.id}</Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(t.createdAt)} · sent to {t.sentTo}
                </Text>
              </Group>
              <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
                {t.message}
              </Text>
              <Group gap="xs" mt={4}>
                {t.callbackRequested ? <Badge variant="light">Call back at {t.callbackNumber}</Badge> : null}
                {t.attachments.map((a) => (
                  <Badge key={a.url} variant="outline" color="gray">
                    {a.name}
                  </Badge>
                ))}
              </Group>
            </Card>
          ))}
        </Stack>
      ) : null}
    </>
  );
}
