import { Box, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/**
 * Title row of a page: its level-one heading (one `h1` per screen, shown at the `h2` size), a
 * one-line description and the page's main actions.
 */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}

/**
 * The screen's level-one heading for screen readers only, where the screen shows no title (e.g. an
 * open conversation filling a phone-sized screen).
 */
export function HiddenPageTitle({ title }: { title: string }) {
  return (
    <Box component="h1" className={VisuallyHidden.classes.root}>
      {title}
    </Box>
  );
}
