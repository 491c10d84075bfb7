import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client';
import { TenantThemeProvider } from '../lib/tenant';
import { Notices } from './notices';
import { cssVariablesResolver, theme } from './theme';

/**
 * Mantine (theme, notices centred at the bottom per foundation §4 and lib/notify, their host loaded when first needed:
 * app/notices.tsx), TanStack Query and the host's white-label tenant branding (lib/tenant.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notices />
      <QueryClientProvider client={queryClient}>
        <TenantThemeProvider>{children}</TenantThemeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
