import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandGoogle, IconBrandWindows } from '@tabler/icons-react';
import { oidcStartUrl, useOidcProviders } from '../api/oidc';

const ICONS: Record<string, typeof IconBrandGoogle> = { google: IconBrandGoogle, microsoft: IconBrandWindows };

interface OidcButtonsProps {
  /** "Remember me" as ticked on the password form: a 14-day cookie after the provider too. */
  remember: boolean;
  /** The app page to open after signing in. */
  returnTo?: string;
}

/**
 * "Continue with Google" / "Continue with Microsoft" under the password form, only for the providers the server has
 * configured (none in the sandbox: nothing is shown). Each is a link: the browser goes to the provider and back.
 */
export function OidcButtons({ remember, returnTo }: OidcButtonsProps) {
  const providers = useOidcProviders().data?.data ?? [];
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="oidc-buttons">
      <Divider label="or" labelPosition="center" />
      {providers.map((p) => {
        const Icon = ICONS[p.id];
        return (
          <Button
            key={p.id}
            component="a"
            href={oidcStartUrl(p.id, { remember, returnTo })}
            variant="default"
            fullWidth
            leftSection={Icon ? <Icon size={18} aria-hidden /> : null}
          >
            Continue with {p.name}
          </Button>
        );
      })}
    </Stack>
  );
}
