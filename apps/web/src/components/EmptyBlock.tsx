import { Button, Card, EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyBlockProps {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  /** The helpful next step (a button or link). */
  action?: ReactNode;
}

/** An empty list: what is missing and the next step to take. */
export function EmptyBlock({ icon, title, description, action }: EmptyBlockProps) {
  return (
    <EmptyState icon={icon} title={title} description={description} py="xl" data-testid="empty-state">
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
  return <EmptyBlock title={`Error loading ${what}`} description="Please try again later" action={onRetry ? <Button onClick={onRetry}>Retry</Button> : undefined} />;
}
