/**
 * Dismissing an alert (spec 001 "Alert": the reasons not-relevant, already-aware, duplicate, other): a reason is
 * required, and a comment with "Other". Answers "Alert updated successfully".
 */
import { Button, Group, Modal, Radio, Stack, Textarea } from '@mantine/core';
import { ALERT_DISMISS_REASONS } from '@switchboard/contracts';
import { useState, type FormEvent } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useUpdateAlert } from '../api/alerts';
import { ALERT_DISMISS_REASON_LABELS } from '../labels';
import type { Alert, AlertDismissReason } from '../types';

export function DismissAlertModal({ alert, onClose }: { alert: Alert | null; onClose: () => void }) {
  const update = useUpdateAlert();
  const [reason, setReason] = useState<AlertDismissReason | null>(null);
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  const close = () => {
    setReason(null);
    setComment('');
    setErrors({});
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!alert) return;
    const local: Record<string, string[]> = {};
    if (!reason) local.reason = ['Choose why you dismiss the alert.'];
    if (reason === 'other' && !comment.trim()) local.comment = ['Tell your team why.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    update.mutate(
      { id: alert.id, state: 'dismissed', reason, comment: comment.trim() || undefined },
      {
        onSuccess: (r) => {
          notify.success(r.message);
          close();
        },
        onError: (err) => {
          if (err instanceof HttpError && err.status === 422) setErrors(err.fieldErrors);
          else notify.danger(err.message, 10_000);
        },
      },
    );
  };

  return (
    <Modal opened={alert !== null} onClose={close} title="Dismiss the alert">
      <form onSubmit={submit}>
        <Stack>
          <Radio.Group label="Reason" value={reason} onChange={(v) => setReason(v as AlertDismissReason)} error={errors.reason?.[0]} withAsterisk>
            <Stack gap="xs" mt="xs">
              {ALERT_DISMISS_REASONS.map((r) => (
                <Radio key={r} value={r} label={ALERT_DISMISS_REASON_LABELS[r]} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label="Comment"
            description={reason === 'other' ? 'Required with “Other”.' : 'Optional: kept in the alert’s history.'}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={errors.comment?.[0]}
            maxLength={2000}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="gray" loading={update.isPending}>
              Dismiss
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
