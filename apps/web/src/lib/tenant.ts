/**
 * White-label branding before sign-in (docs/workspace.md "Tenant"): `GET /api/tenant-config?hostname=` gives the
 * tenant of the host name the app is served on (its name, logo, colours, favicon, support e-mail; the default tenant
 * when the host is not a verified custom domain). {@link TenantThemeProvider} (app/providers.tsx) applies it: the
 * primary colour over the app's primary palette (CSS variables), the name as the document title, the favicon.
 */
import { colorsTuple, darken, lighten, rgba, useMantineTheme } from '@mantine/core';
import type { Infer, TenantConfigBody } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { Fragment, createElement, useEffect, useMemo, type ReactNode } from 'react';

export type TenantConfig = Infer<typeof TenantConfigBody>['data'];

/** The tenant-config query key (the tenant screen refreshes it after a change). */
export const TENANT_CONFIG_KEY = ['tenant-config'] as const;

/** Reads the tenant of `window.location.hostname`; no error toast (the default branding stays on failure). */
export function useTenantConfig() {
  return useQuery({
    queryKey: [...TENANT_CONFIG_KEY, window.location.hostname],
    queryFn: async (): Promise<TenantConfig> => {
      const res = await fetch(`/api/tenant-config?hostname=${encodeURIComponent(window.location.hostname)}`, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error(`tenant-config answered ${res.status}`);
      return ((await res.json()) as { data: TenantConfig }).data;
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

/** Ten shades around `hex` (shade 6 = the colour itself), light to dark, for a Mantine palette. */
export function shadesOf(hex: string): ReturnType<typeof colorsTuple> {
  return colorsTuple([
    lighten(hex, 0.9),
    lighten(hex, 0.75),
    lighten(hex, 0.6),
    lighten(hex, 0.45),
    lighten(hex, 0.3),
    lighten(hex, 0.15),
    hex,
    darken(hex, 0.12),
    darken(hex, 0.24),
    darken(hex, 0.36),
  ]);
}

/**
 * CSS that repaints the app's primary palette (`--mantine-color-{primary}-*` and `--mantine-primary-color-*`) with
 * the tenant's colour; null for the default tenant. Mantine's components read these variables, so no component
 * needs to know about tenants.
 */
export function tenantCss(t: TenantConfig | undefined, primary: string): string | null {
  if (!t || t.id === null) return null;
  const s = shadesOf(t.primaryColor);
  const vars: Array<[string, string]> = [
    ...s.map((v, i) => [String(i), v] as [string, string]),
    ['filled', s[6]],
    ['filled-hover', s[7]],
    ['light', rgba(s[6], 0.1)],
    ['light-hover', rgba(s[6], 0.12)],
    ['light-color', s[8]],
    ['outline', s[7]],
    ['outline-hover', rgba(s[6], 0.05)],
    ['text', s[8]],
  ];
  const lines = vars.flatMap(([k, v]) => [`--mantine-color-${primary}-${k}: ${v};`, `--mantine-primary-color-${k}: ${v};`]);
  return `html:root { ${lines.join(' ')} }`;
}

function setFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = href;
}

/** Applies the host's tenant: primary colour, document title and favicon. Renders its children as they are. */
export function TenantThemeProvider({ children }: { children: ReactNode }) {
  const { data } = useTenantConfig();
  const theme = useMantineTheme();
  const css = useMemo(() => tenantCss(data, theme.primaryColor), [data, theme.primaryColor]);
  useEffect(() => {
    if (!data || data.id === null) return;
    document.title = data.name;
    if (data.faviconUrl) setFavicon(data.faviconUrl);
  }, [data]);
  useEffect(() => {
    if (!css) return;
    const style = document.createElement('style');
    style.dataset.tenant = String(data?.id ?? '');
    style.textContent = css;
    document.head.appendChild(style);
    return () => style.remove();
  }, [css, data?.id]);
  return createElement(Fragment, null, children);
}
