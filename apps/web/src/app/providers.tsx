import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NOTICE_POSITION } from '../lib/notify';
import { queryClient } from '../lib/query-client';
import { TenantThemeProvider } from '../lib/tenant';
import { cssVariablesResolver, theme } from './theme';

/**
 * Mantine (theme, notices centred at the bottom per foundation §4 and lib/notify), TanStack Query and the host's
 * white-label tenant branding (lib/tenant.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position={NOTICE_POSITION} limit={3} zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        <TenantThemeProvider>{children}</TenantThemeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
