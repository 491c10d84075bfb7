import {
  createTheme,
  darken,
  DEFAULT_THEME,
  luminance,
  type AnchorProps,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type TableScrollContainerProps,
} from '@mantine/core';

/** WCAG 2.1 AA for normal text (1.4.3), with a little margin for rounding in browsers. */
const AA_TEXT = 4.6;

/**
 * The light backgrounds text sits on: cards and dialogs (white), the page (gray 0), table rows and
 * hovers (gray 1), and the tints of `light` badges, alerts and selected rows (every colour's shade 1).
 */
const BACKGROUNDS = [
  DEFAULT_THEME.white,
  DEFAULT_THEME.colors.gray[0],
  ...Object.entries(DEFAULT_THEME.colors)
    .filter(([name]) => name !== 'dark')
    .map(([, palette]) => palette[1]),
];

/** Contrast ratio of two colours (WCAG 2.1 definition, 1:1 to 21:1). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` darkened in small steps until it reaches `ratio` against every one of `backgrounds`. */
function darkenUntil(color: string, backgrounds: string[], ratio = AA_TEXT): string {
  let result = color;
  while (backgrounds.some((bg) => contrastRatio(result, bg) < ratio)) result = darken(result, 0.04);
  return result;
}

/**
 * A Mantine palette whose text-carrying shades read at AA on the app's light backgrounds: shade 6
 * (filled buttons and badges with white text, coloured text such as `c="red"`, links, errors, and
 * `dimmed` text, which is gray 6) against every one of `BACKGROUNDS`; shades 7 and 8 (hover) kept
 * darker than 6 and 9 darker than 8; shade 9 (text of the `light` variant) against shade 1 (its background). Shades
 * that already pass are Mantine's own.
 */
export function accessiblePalette(palette: MantineColorsTuple): MantineColorsTuple {
  const shades = [...palette];
  shades[6] = darkenUntil(shades[6]!, BACKGROUNDS);
  shades[9] = darkenUntil(shades[9]!, [...BACKGROUNDS, shades[1]!]);
  for (const i of [7, 8, 9]) if (luminance(shades[i]!) >= luminance(shades[i - 1]!)) shades[i] = darken(shades[i - 1]!, 0.12);
  return shades as unknown as MantineColorsTuple;
}

/** Mantine's palettes, made readable (see `accessiblePalette`); `dark` is for the dark scheme and stays. */
const colors = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, palette]) => [name, name === 'dark' ? palette : accessiblePalette(palette)]),
) as Record<string, MantineColorsTuple>;

/**
 * The product's Mantine theme: Mantine's defaults with palettes that meet WCAG 2.1 AA contrast, and
 * component defaults that keep every screen accessible (checked by e2e/tests/accessibility.spec.ts):
 * - links are underlined, so a link inside text is told apart without relying on colour (1.4.1);
 * - a close button (dialogs, drawers, notices) is named "Close" unless it is given its own name (4.1.2);
 * - a table that scrolls sideways on a narrow screen can be scrolled from the keyboard (2.1.1);
 * - a colour field's eye-dropper button and its picker's sliders are named (4.1.2; issue 23: Tags and Tenant);
 * - a menu has no focus placeholder inside it (a tabbable presentational child of role menu is axe-critical
 *   `aria-required-children`); opening a menu focuses its first item instead;
 * - Enter in a multi-select's search text picks the highlighted choice and never submits the surrounding form
 *   (issue 23: Enter in a contact's Labels created the contact half-filled).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  colors,
  components: {
    // Plain objects, not `Component.extend(…)`: the theme is in the sign-in page's script, and
    // importing the components here would pull them into it.
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    ColorInput: { defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } } },
    ColorPicker: { defaultProps: { saturationLabel: 'Saturation and brightness', hueLabel: 'Hue', alphaLabel: 'Opacity' } },
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    MultiSelect: {
      defaultProps: {
        onKeyDown: (event: { key: string; preventDefault: () => void }) => {
          if (event.key === 'Enter') event.preventDefault();
        },
      },
    },
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } satisfies Partial<TableScrollContainerProps> },
  },
});

/**
 * CSS variables on top of Mantine's (MantineProvider `cssVariablesResolver`): placeholder text,
 * which Mantine draws in gray 5 (2:1 on white), is drawn in the readable gray 6 like `dimmed` text
 * (WCAG 1.4.3; a placeholder often says what to type).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-placeholder': 'var(--mantine-color-gray-6)' },
  dark: {},
});
