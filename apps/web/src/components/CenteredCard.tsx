import { Anchor, Box, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTenantConfig } from '../lib/tenant';

interface CenteredCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** The mark above the card in place of the tenant's (the consumer area shows its own product). */
  brand?: ReactNode;
}

/** The brand mark and one card centred on the page (sign-in, password reset, sign-up, outbox). */
export function CenteredCard({ title, subtitle, children, footer, width = 420, brand }: CenteredCardProps) {
  // A white-label tenant's name and logo (GET /tenant-config by host name; docs/workspace.md).
  const tenant = useTenantConfig().data;
  return (
    <Center component="main" mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Box w="100%" maw={width}>
        <Stack gap="lg">
          <Group justify="center" gap="xs">
            {brand ?? (
              <>
                {tenant?.logoUrl ? (
                  <img src={tenant.logoUrl} alt="" height={32} style={{ maxWidth: 160, objectFit: 'contain' }} />
                ) : (
                  <ThemeIcon size="lg" radius="md" variant="filled">
                    <IconPhoneCall size={20} />
                  </ThemeIcon>
                )}
                <Anchor href="/" underline="never" c="dark" fw={700} size="lg">
                  {tenant?.name ?? 'Switchboard'}
                </Anchor>
              </>
            )}
          </Group>
          <Paper withBorder shadow="sm" radius="md" p="xl">
            <Stack gap="md">
              <Stack gap={4}>
                <Title order={1} size="h3">
                  {title}
                </Title>
                {subtitle ? (
                  <Text size="sm" c="dimmed">
                    {subtitle}
                  </Text>
                ) : null}
              </Stack>
              {children}
            </Stack>
          </Paper>
          {footer ? (
            <Text size="sm" ta="center" c="dimmed">
              {footer}
            </Text>
          ) : null}
        </Stack>
      </Box>
    </Center>
  );
}
