/**
 * The number limit and its increase request (spec 002 §7 "number limit and limit increase request"; docs/numbers.md
 * "Number limit", docs/billing.md "Number limit"): `GET /api/companies/{companyId}/number-limit` and
 * `POST …/number-limit-increase { requested_limit, reason }` ("Your request to increase the number limit has been
 * submitted."). Open to the roles that may buy numbers (`numbers.purchase`: owner and administrator), from the
 * Numbers page's "Number limit" button, from a purchase refused at the limit (BuyConfirmation), and from the Billing
 * page's link (`/numbers?dialog=number-limit`).
 */
import { Alert, Button, Group, Modal, NumberInput, Progress, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Infer, NumberLimitBody } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCan } from '../../../lib/access';
import { http, HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useCompanyId } from '../../../lib/session';

export type NumberLimit = Infer<typeof NumberLimitBody>;

/** The search parameter that opens the dialog on the Numbers page (the Billing page links to it). */
export const NUMBER_LIMIT_DIALOG_PARAM = 'number-limit';

/** The query key of the company's number limit (shared with the billing screen's copy of it). */
export const numberLimitKey = (companyId: number | null) => ['company', companyId, 'number-limit'] as const;

/** `GET /api/companies/{companyId}/number-limit`: the limit (the plan's unless raised) and the numbers in use. */
export function useNumberLimit(enabled = true) {
  const c = useCompanyId();
  return useQuery({
    queryKey: numberLimitKey(c),
    queryFn: () => http.get<NumberLimit>(`/api/companies/${c}/number-limit`, { silent: true }),
    enabled: enabled && c !== null,
  });
}

/** `POST /api/companies/{companyId}/number-limit-increase`: quiet on 422 (the form shows it). */
function useRequestLimitIncrease() {
  const c = useCompanyId();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { requested_limit: number; reason: string }) =>
      http.post<{ message: string }>(`/api/companies/${c}/number-limit-increase`, input, { silent: true }),
    onSuccess: (r) => {
      notify.success(r.message);
      void qc.invalidateQueries({ queryKey: numberLimitKey(c) });
    },
  });
}

/** "12 of 25 numbers in use" with a meter. */
function LimitMeter({ limit }: { limit: NumberLimit }) {
  const full = limit.used >= limit.limit;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm">Numbers in use</Text>
        <Text size="sm" c={full ? 'red' : undefined} data-testid="number-limit-usage">
          {limit.used.toLocaleString('en-US')} of {limit.limit.toLocaleString('en-US')}
        </Text>
      </Group>
      <Progress value={limit.limit > 0 ? Math.min(100, (limit.used / limit.limit) * 100) : 100} color={full ? 'red' : 'blue'} aria-label="Numbers in use" />
    </Stack>
  );
}

/**
 * The dialog: the limit and how many numbers are in use, and the increase request (numbers needed, why). `suggested`
 * pre-fills the numbers needed (e.g. what a refused purchase needed).
 */
export function NumberLimitDialog({ opened, onClose, suggested }: { opened: boolean; onClose: () => void; suggested?: number }) {
  const limit = useNumberLimit(opened);
  const request = useRequestLimitIncrease();
  const [requested, setRequested] = useState<string | number>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const { reset } = request;

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setReason('');
    setRequested(suggested ?? '');
    reset();
  }, [opened, suggested, reset]);

  const submit = async () => {
    setErrors({});
    try {
      await request.mutateAsync({ requested_limit: Number(requested), reason });
      onClose();
    } catch (e) {
      setErrors(e instanceof HttpError && e.status === 422 ? e.fieldErrors : { reason: ['The request could not be sent. Please try again.'] });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Request a limit increase">
      <Stack
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {limit.data ? (
          <>
            <LimitMeter limit={limit.data} />
            <Text size="sm" c="dimmed">
              Buying beyond {limit.data.limit.toLocaleString('en-US')} numbers is refused until the limit is raised. Our team reviews the request and answers by
              e-mail.
            </Text>
          </>
        ) : limit.isError ? (
          <Alert color="red" variant="light">
            The number limit could not be loaded. You can still send the request.
          </Alert>
        ) : (
          <Text size="sm">Loading the number limit…</Text>
        )}
        <NumberInput
          label="Numbers you need in all"
          description={limit.data ? `More than ${limit.data.limit.toLocaleString('en-US')}` : undefined}
          min={1}
          max={100000}
          allowDecimal={false}
          value={requested}
          onChange={setRequested}
          error={errors.requested_limit?.join(' ')}
          required
        />
        <Textarea
          label="Why"
          autosize
          minRows={2}
          maxLength={2000}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason?.join(' ')}
          required
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={request.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The Numbers page's "Number limit" button (roles with `numbers.purchase` only), opening {@link NumberLimitDialog};
 * `?dialog=number-limit` opens it on arrival (the Billing page's link) and is removed once it closes.
 */
export function NumberLimitButton() {
  const canRequest = useCan('numbers.purchase');
  const [params, setParams] = useSearchParams();
  const [opened, dialog] = useDisclosure(false);
  const fromLink = params.get('dialog') === NUMBER_LIMIT_DIALOG_PARAM;
  const { open } = dialog;
  useEffect(() => {
    if (fromLink && canRequest) open();
  }, [fromLink, canRequest, open]);
  if (!canRequest) return null;
  const close = () => {
    dialog.close();
    if (fromLink) {
      const next = new URLSearchParams(params);
      next.delete('dialog');
      setParams(next, { replace: true });
    }
  };
  return (
    <>
      <Button variant="default" onClick={dialog.open}>
        Number limit
      </Button>
      <NumberLimitDialog opened={opened} onClose={close} />
    </>
  );
}
