/**
 * Accessibility of every screen (issue "Speed and accessibility of the web app"): axe-core over
 * every route of the web app (apps/web/src/app/router.tsx) and the dialogs people open most, signed
 * out and signed in as the demo user, at a desktop and at a phone-sized viewport. WCAG 2.0 and 2.1,
 * levels A and AA: no violation whose impact is critical or serious on any screen.
 *
 * Every screen is checked before the test fails, and the failure lists each violation's id, impact,
 * help text and the first targets, screen by screen.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['critical', 'serious']);
const PHONE = { width: 375, height: 812 };

interface Finding {
  screen: string;
  id: string;
  impact: string;
  help: string;
  nodes: number;
  targets: string[];
}

/**
 * Waits until the screen has settled: its level-one heading shown (every screen has one), no
 * skeleton or loader left, and no CSS transition or animation running (Mantine fades dialogs in; a
 * half-faded text would read as low contrast). A screen without a heading or that never finishes
 * loading is recorded as a finding, and the audit goes on.
 */
async function settle(page: Page, screen: string, findings: Finding[]): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  const heading = await page
    .locator('h1')
    .first()
    .waitFor({ state: 'attached', timeout: 30_000 })
    .then(
      () => true,
      () => false,
    );
  if (!heading) findings.push({ screen, id: 'page-has-heading-one', impact: 'serious', help: 'Every screen has one level-one heading', nodes: 0, targets: [] });
  const loaded = await expect(page.locator('.mantine-Skeleton-root[data-visible="true"], .mantine-Loader-root:visible'))
    .toHaveCount(0, { timeout: 30_000 })
    .then(
      () => true,
      () => false,
    );
  if (!loaded)
    findings.push({
      screen,
      id: 'screen-loads',
      impact: 'serious',
      help: 'The screen finishes loading (skeletons or loaders still shown after 30 s)',
      nodes: 0,
      targets: [],
    });
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    null,
    { timeout: 15_000 },
  );
}

/** Runs axe over the whole page and records its critical and serious violations under `screen`. */
async function audit(page: Page, screen: string, findings: Finding[]): Promise<void> {
  await settle(page, screen, findings);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  for (const v of result.violations) {
    if (!v.impact || !BLOCKING.has(v.impact)) continue;
    findings.push({
      screen,
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1).join(' ').trim()}` : ''}`),
    });
  }
}

/** Fails with every finding, screen by screen, when there is any. */
function report(findings: Finding[]): void {
  const text = findings
    .map((f) => `[${f.screen}] ${f.id} (${f.impact}, ${f.nodes} nodes): ${f.help}\n${f.targets.map((t) => `    ${t}`).join('\n')}`)
    .join('\n');
  expect(findings.length, `axe found ${findings.length} critical or serious violations:\n${text}`).toBe(0);
}

/** Opens a dialog by its button, audits the page with it open, and closes it with Escape. */
async function auditDialog(page: Page, screen: string, button: string, findings: Finding[]): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).first().click();
  await expect(page.getByRole('dialog').first()).toBeVisible();
  await audit(page, screen, findings);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The path of the first link whose href matches `pattern` on the current page. */
async function firstLink(page: Page, pattern: RegExp): Promise<string> {
  const links = page.locator('a[href]');
  await expect
    .poll(async () => (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))).find((h) => pattern.test(h)) ?? '', { timeout: 30_000 })
    .not.toBe('');
  return (await links.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))).find((h) => pattern.test(h))!;
}

test.describe('accessibility (axe, WCAG 2.1 A and AA)', () => {
  test.describe.configure({ timeout: 600_000 });

  test('public pages, signed out', async ({ page }) => {
    const findings: Finding[] = [];
    for (const path of ['/login', '/signup', '/forgot-password', '/reset-password?token=not-a-real-token&email=someone%40example.com']) {
      await page.goto(path);
      await audit(page, path, findings);
    }
    await page.setViewportSize(PHONE);
    await page.goto('/login');
    await audit(page, 'phone /login', findings);
    report(findings);
  });

  test('every signed-in route and the main dialogs', async ({ page }) => {
    const findings: Finding[] = [];
    await signIn(page);
    const visit = async (path: string, screen = path) => {
      await page.goto(path);
      await audit(page, screen, findings);
    };

    await visit('/inbox');
    // The first Tab reaches "Skip to content", which moves focus past the header and navigation.
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.getByRole('button', { name: 'Select conversations' }).click();
    await audit(page, '/inbox selecting', findings);
    await page.getByRole('button', { name: 'Select conversations' }).click();
    await page.getByTestId('conversation-row').first().click();
    await page.waitForURL(/\/inbox\/\d+$/);
    await visit(new URL(page.url()).pathname, '/inbox/:id');

    await visit('/activity');
    const call = await firstLink(page, /^\/calls\/\d+$/);
    await visit(call, '/calls/:id');

    await visit('/contacts');
    await auditDialog(page, '/contacts new contact', 'New contact', findings);
    await auditDialog(page, '/contacts import', 'Import', findings);
    await page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .check();
    await audit(page, '/contacts with a selection', findings);
    await page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .uncheck();
    await page
      .getByTestId('contact-row')
      .first()
      .click()
      .catch(() => undefined);
    if (await page.getByRole('dialog').count()) {
      await audit(page, '/contacts contact drawer', findings);
      await page.keyboard.press('Escape');
    }

    await visit('/groups');
    await auditDialog(page, '/groups new group', 'New group', findings);
    await visit('/custom-fields');
    await auditDialog(page, '/custom-fields new field', 'New field', findings);

    await visit('/campaigns/new');
    await page.getByLabel('Title').fill(`Accessibility check ${Date.now()}`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/campaigns$/);
    await visit('/campaigns');
    await page.getByTestId('campaign-row').first().click();
    await page.waitForURL(/\/campaigns\/\d+\/edit$/);
    const campaignId = /\/campaigns\/(\d+)\/edit$/.exec(page.url())![1];
    await audit(page, '/campaigns/:id/edit', findings);
    await visit(`/campaigns/${campaignId}`, '/campaigns/:id');

    await visit('/numbers');
    const number = await firstLink(page, /^\/numbers\/\d+$/);
    await page.getByRole('checkbox', { name: 'Select all numbers on this page' }).check();
    await audit(page, '/numbers with a selection', findings);
    await page.getByRole('checkbox', { name: 'Select all numbers on this page' }).uncheck();
    await auditDialog(page, '/numbers buy dialog', 'Buy a number', findings);
    await page.getByRole('button', { name: 'Buy a number' }).first().click();
    await page.getByLabel('Area code').fill('415');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('number-result').first()).toBeVisible();
    await audit(page, '/numbers buy dialog results', findings);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await visit(number, '/numbers/:id');

    const dialogs: Record<string, string> = { '/greetings': 'New greeting', '/number-templates': 'New template', '/ports': 'New port request' };
    for (const path of ['/voicemail', '/greetings', '/schedule', '/blocks', '/number-templates', '/ports', '/simulator', '/settings', '/outbox']) {
      await visit(path);
      if (dialogs[path]) await auditDialog(page, `${path} ${dialogs[path].toLowerCase()}`, dialogs[path], findings);
      if (path === '/simulator') {
        await page
          .getByRole('textbox', { name: 'Company number', exact: true })
          .or(page.getByRole('combobox', { name: 'Company number', exact: true }))
          .first()
          .click();
        await page.getByRole('option').first().click();
        await expect(page.getByTestId('forward-outcome').first()).toBeVisible();
        await audit(page, '/simulator with a number', findings);
      }
    }
    await visit('/no-such-page', '404');
    report(findings);
  });

  // Issue 23: every screen axe-clean at both sizes, with its drawers and popovers open.
  for (const size of ['desktop', 'phone'] as const) {
    test(`the remaining screens, their drawers and popovers (${size})`, async ({ page }) => {
      const findings: Finding[] = [];
      if (size === 'phone') await page.setViewportSize(PHONE);
      await signIn(page);
      const screen = (path: string) => `${size === 'phone' ? 'phone ' : ''}${path}`;
      const visit = async (path: string) => {
        await page.goto(path);
        await audit(page, screen(path), findings);
      };
      for (const path of [
        '/dashboard',
        '/reports',
        '/favorite-reports',
        '/alerts',
        '/calls/search',
        '/fax',
        '/tracking',
        '/tracking/sources',
        '/tracking/script',
        '/tracking/feed',
        '/tracking/leads',
        '/tracking/reports',
        '/tracking/bulk-update',
        '/users',
        '/organizations',
        '/api-keys',
        '/webhooks',
        '/audit-log',
        '/general-settings',
        '/data-groups',
        '/tenant',
        '/support',
        '/billing',
        '/sms-verification',
        '/marketplace',
        '/voicemail',
        '/simulator',
      ]) {
        await visit(path);
      }
      // Popovers and drawers: the report filters, a colour picker (tags and tenant), the account menu.
      await page.goto('/reports');
      await page.getByRole('button', { name: /^Filters/ }).click();
      await expect(page.getByRole('dialog', { name: 'Filter calls' })).toBeVisible();
      await audit(page, screen('/reports filters drawer'), findings);
      await page.keyboard.press('Escape');
      for (const path of ['/tags', '/tenant']) {
        await page.goto(path);
        await settle(page, screen(path), findings);
        const colour = page.getByRole('textbox', { name: /^(Colour|Primary colou?r)/ }).first();
        if (await colour.count()) {
          await colour.click();
          await audit(page, screen(`${path} colour picker`), findings);
          await page.keyboard.press('Escape');
        } else await audit(page, screen(path), findings);
      }
      await page.getByRole('button', { name: 'Account menu' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await audit(page, screen('account menu'), findings);
      await page.keyboard.press('Escape');
      // A call's details with its talk-time bars, opened from Activity.
      await page.goto('/activity');
      const call = await firstLink(page, /^\/calls\/\d+$/);
      await visit(call);
      report(findings);
    });
  }

  test('main routes at a phone-sized viewport', async ({ page }) => {
    const findings: Finding[] = [];
    await page.setViewportSize(PHONE);
    await signIn(page);
    for (const path of ['/inbox', '/activity', '/contacts', '/numbers', '/campaigns', '/settings']) {
      await page.goto(path);
      await audit(page, `phone ${path}`, findings);
    }
    await page.goto('/inbox');
    await page.getByTestId('conversation-row').first().click();
    await page.waitForURL(/\/inbox\/\d+$/);
    await audit(page, 'phone /inbox/:id', findings);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await audit(page, 'phone navigation open', findings);
    report(findings);
  });
});
