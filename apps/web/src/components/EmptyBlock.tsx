import { Button, Card, EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyBlockProps {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  /** The helpful next step (a button or link). */
  action?: ReactNode;
  /** Makes the title a heading of this level (e.g. 1 when the empty block is the whole page). */
  titleOrder?: 1 | 2 | 3 | 4 | 5 | 6;
}

/** An empty list: what is missing and the next step to take. */
export function EmptyBlock({ icon, title, description, action, titleOrder }: EmptyBlockProps) {
  return (
    <EmptyState icon={icon} title={titleOrder ? undefined : title} py="xl" data-testid="empty-state">
      {titleOrder ? <EmptyState.Title order={titleOrder}>{title}</EmptyState.Title> : null}
      {description ? <EmptyState.Description>{description}</EmptyState.Description> : null}
      {action ? <EmptyState.Actions>{action}</EmptyState.Actions> : null}
    </EmptyState>
  );
}

/** An empty page-level list: `EmptyBlock` in a bordered card. */
export function EmptyCard(props: EmptyBlockProps) {
  return (
    <Card withBorder radius="md">
      <EmptyBlock {...props} />
    </Card>
  );
}

/** A list that failed to load: "Error loading <what>", "Please try again later" and, given `onRetry`, a Retry button. */
export function LoadError({ what, onRetry }: { what: string; onRetry?: () => void }) {
  return (
    <EmptyBlock title={`Error loading ${what}`} description="Please try again later" action={onRetry ? <Button onClick={onRetry}>Retry</Button> : undefined} />
  );
}
