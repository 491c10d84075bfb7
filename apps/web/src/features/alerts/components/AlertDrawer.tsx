/**
 * One alert (opened from the list or from an e-mail's `/alerts?alert={id}` link): what happened, its figures, the
 * actions for its state (acknowledge, resolve, dismiss with a reason, reopen), a comment, and its history (every
 * change with who and when). Opening it marks it read.
 */
import { Alert as Callout, Badge, Button, Drawer, Group, Loader, Stack, Text, Textarea, Timeline, Title } from '@mantine/core';
import { IconBellOff, IconCheck, IconEye, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../components/EmptyBlock';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useAlert, useAlertHistory, useUpdateAlert } from '../api/alerts';
import { ALERT_DISMISS_REASON_LABELS, ALERT_TYPE_LABELS, STATE_COLORS, STATE_LABELS, historyText } from '../labels';
import type { Alert, AlertState } from '../types';
import { DismissAlertModal } from './DismissAlertModal';

export function AlertDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const alert = useAlert(id);
  const history = useAlertHistory(id);
  const update = useUpdateAlert();
  const [dismissing, setDismissing] = useState<Alert | null>(null);
  const [comment, setComment] = useState('');
  const a = alert.data;

  const setState = (state: AlertState) =>
    a && update.mutate({ id: a.id, state }, { onSuccess: (r) => notify.success(r.message), onError: (e) => notify.danger(e.message, 10_000) });
  const addComment = () =>
    a &&
    comment.trim() &&
    update.mutate(
      { id: a.id, comment: comment.trim() },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          setComment('');
        },
      },
    );

  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="md" title={<Text fw={600}>Alert</Text>}>
      {alert.isPending ? (
        <Loader size="sm" />
      ) : alert.isError || !a ? (
        <LoadError what="the alert" onRetry={() => void alert.refetch()} />
      ) : (
        <Stack gap="md" data-testid="alert-detail">
          <Group gap="xs">
            <Badge color={STATE_COLORS[a.state]}>{STATE_LABELS[a.state]}</Badge>
            <Badge variant="light" color={a.severity === 'critical' ? 'red' : 'orange'}>
              {a.severity === 'critical' ? 'Critical' : 'Warning'}
            </Badge>
            <Badge variant="outline">{ALERT_TYPE_LABELS[a.type]}</Badge>
          </Group>
          <Title order={2} size="h4">
            {a.title}
          </Title>
          <Text size="sm">{a.message}</Text>
          <Text size="xs" c="dimmed">
            {a.subject.label} · raised {formatDateTime(a.createdAt)}
          </Text>
          {a.state === 'dismissed' && a.reason ? (
            <Callout color="gray" title={`Dismissed: ${ALERT_DISMISS_REASON_LABELS[a.reason]}`}>
              {a.comment}
            </Callout>
          ) : null}
          <Group gap="xs">
            {a.state === 'open' ? (
              <Button size="xs" variant="light" leftSection={<IconEye size={14} />} onClick={() => setState('acknowledged')} loading={update.isPending}>
                Acknowledge
              </Button>
            ) : null}
            {a.state === 'open' || a.state === 'acknowledged' ? (
              <>
                <Button size="xs" color="teal" leftSection={<IconCheck size={14} />} onClick={() => setState('resolved')} loading={update.isPending}>
                  Resolve
                </Button>
                <Button size="xs" variant="default" leftSection={<IconBellOff size={14} />} onClick={() => setDismissing(a)}>
                  Dismiss
                </Button>
              </>
            ) : (
              <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => setState('open')} loading={update.isPending}>
                Reopen
              </Button>
            )}
          </Group>
          <Stack gap={6}>
            <Textarea label="Add a comment" value={comment} onChange={(e) => setComment(e.currentTarget.value)} autosize minRows={2} maxLength={2000} />
            <Group justify="flex-end">
              <Button size="xs" variant="default" onClick={addComment} disabled={!comment.trim()} loading={update.isPending}>
                Comment
              </Button>
            </Group>
          </Stack>
          <Title order={3} size="h5">
            History
          </Title>
          {history.isPending ? (
            <Loader size="xs" />
          ) : (
            <Timeline bulletSize={12} lineWidth={2} data-testid="alert-history">
              {(history.data ?? []).map((h) => (
                <Timeline.Item key={h.id} title={<Text size="sm">{historyText(h)}</Text>}>
                  {h.comment ? (
                    <Text size="sm" c="dimmed">
                      “{h.comment}”
                    </Text>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {formatDateTime(h.createdAt)}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          )}
        </Stack>
      )}
      <DismissAlertModal alert={dismissing} onClose={() => setDismissing(null)} />
    </Drawer>
  );
}
