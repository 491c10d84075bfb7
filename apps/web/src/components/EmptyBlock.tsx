import { EmptyState } from '@mantine/core';
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
