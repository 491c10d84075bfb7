/**
 * `/caddy/invitations` (invite a phone number by text, the list with who joined; docs/consumer-area.md
 * "Invitations") and `/caddy/review` (one review, 1 to 5 stars with an optional comment, editable; "Reviews").
 */
import { Badge, Button, Card, Group, Rating, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { formatPhone } from '@switchboard/domain';
import { IconSend } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { notify } from '../../../lib/notify';
import { useInvitations, useInvite, useReview, useSaveReview } from '../api/account';
import { CaddyError } from '../api/client';
import { CaddyPage, Empty, FormError, formatDay, LoadFailed, Loading } from './ui';

/** The invitations page. */
export function InvitationsPage() {
  const invitations = useInvitations();
  const invite = useInvite();
  const [phone, setPhone] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(phone.trim(), {
      onSuccess: (r) => {
        setPhone('');
        notify.success(r.message);
      },
    });
  };
  const phoneError = invite.error instanceof CaddyError ? invite.error.field('phoneNumber') : undefined;
  const list = invitations.data ?? [];
  const joined = list.filter((i) => i.status === 'joined').length;
  return (
    <CaddyPage title="Invite friends" lead="We text them a link to get their own second number.">
      <Card withBorder radius="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Their phone number"
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              autoComplete="off"
              maxLength={32}
              required
              error={phoneError}
              description="Up to 10 invitations a day. Each number can be invited once a week, and never after replying STOP."
            />
            {invite.error && !phoneError ? <FormError error={invite.error} /> : null}
            <Button type="submit" loading={invite.isPending} disabled={!phone.trim()} leftSection={<IconSend size={16} aria-hidden />}>
              Send invitation
            </Button>
          </Stack>
        </form>
      </Card>
      <Stack gap="xs" component="section" aria-labelledby="caddy-invitations-title">
        <Group justify="space-between">
          <Text fw={600} component="h2" size="md" m={0} id="caddy-invitations-title">
            Your invitations
          </Text>
          {list.length ? (
            <Text size="sm" c="dimmed">
              {joined} of {list.length} joined
            </Text>
          ) : null}
        </Group>
        {invitations.isPending ? (
          <Loading rows={2} height={56} label="Loading your invitations" />
        ) : invitations.isError ? (
          <LoadFailed what="your invitations" error={invitations.error} onRetry={() => void invitations.refetch()} />
        ) : list.length === 0 ? (
          <Empty title="No invitations yet">Invite a friend above: you see here when they join.</Empty>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {list.map((i) => (
              <Card component="li" key={i.id} withBorder radius="md" padding="sm" data-testid="caddy-invitation">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0}>
                    <Text fw={600}>{formatPhone(i.phoneNumber)}</Text>
                    <Text size="xs" c="dimmed">
                      {i.status === 'joined' && i.joinedAt ? `Joined on ${formatDay(i.joinedAt)}` : `Invited on ${formatDay(i.createdAt)}`}
                    </Text>
                  </Stack>
                  <Badge color={i.status === 'joined' ? 'teal' : 'gray'} variant="light">
                    {i.status === 'joined' ? 'Joined' : 'Sent'}
                  </Badge>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Stack>
    </CaddyPage>
  );
}

const STAR_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

/** The review page: one review, editable. */
export function ReviewPage() {
  const review = useReview();
  const save = useSaveReview();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  useEffect(() => {
    if (review.data) {
      setRating(review.data.rating);
      setComment(review.data.comment);
    }
  }, [review.data]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ rating, comment: comment.trim() }, { onSuccess: (r) => notify.success(r.message) });
  };
  return (
    <CaddyPage title="Review" lead="Tell us how Caddy works for you. You can change your review at any time.">
      {review.isPending ? (
        <Loading rows={1} height={200} label="Loading your review" />
      ) : review.isError ? (
        <LoadFailed what="your review" error={review.error} onRetry={() => void review.refetch()} />
      ) : (
        <Card withBorder radius="md">
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              {review.data ? (
                <Text size="sm" c="dimmed" data-testid="caddy-review-saved">
                  Your review from {formatDay(review.data.updatedAt)}. Edit it below.
                </Text>
              ) : null}
              <Stack gap={4} role="group" aria-labelledby="caddy-rating-label">
                <Text size="sm" fw={500} id="caddy-rating-label">
                  Your rating
                </Text>
                <Group gap="sm">
                  <Rating value={rating} onChange={setRating} size="xl" getSymbolLabel={(i) => `${i} star${i === 1 ? '' : 's'}`} name="rating" />
                  <Text size="sm" c="dimmed" aria-live="polite">
                    {STAR_WORDS[rating] ?? ''}
                  </Text>
                </Group>
              </Stack>
              <Textarea
                label="Comment (optional)"
                value={comment}
                onChange={(e) => setComment(e.currentTarget.value)}
                autosize
                minRows={3}
                maxRows={8}
                maxLength={2000}
                description={`${comment.length}/2000`}
              />
              <FormError error={save.error} />
              <Button type="submit" loading={save.isPending} disabled={rating < 1}>
                {review.data ? 'Update review' : 'Send review'}
              </Button>
            </Stack>
          </form>
        </Card>
      )}
    </CaddyPage>
  );
}
