/**
 * Analytics in the browser (issue "Analytics" Proof; docs/reports-screens.md): the dashboard shows
 * figures and charts, and a call placed from the Phone simulator in a second tab moves the total
 * without a reload (the `analytics updated` live event); a call report is filtered, its columns
 * chosen, saved as a favourite, exported, and the file downloaded from the `export ready` notice;
 * column presets (spec 001 "Column presets") on the dashboard's exports, the numbers list and the
 * call flows list: chosen, ordered, saved with the spec's message and applied again after a reload.
 * Real server, sandbox carrier, demo seed (two calls to the "Support hotline" at start-up).
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, choose, signIn } from './helpers';

/** The number shown on a KPI card, e.g. "1,234" → 1234. */
async function kpi(page: Page, key: string): Promise<number> {
  const text = await page.getByTestId(`kpi-${key}`).getByTestId('kpi-value').innerText();
  return Number(text.replace(/[^\d]/g, ''));
}

/** Reads a downloaded file and checks it is a whole PDF document; @returns its page count. */
function pdfPages(file: string): number {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.subarray(-16).toString('latin1')).toContain('%%EOF');
  return (bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

test('the dashboard shows figures and charts, and a simulator call moves the count without reload', async ({ page, context }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Today: the seed's calls to the Support hotline are counted and drawn.
  await page
    .getByRole('textbox', { name: 'Date range' })
    .or(page.getByRole('combobox', { name: 'Date range' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Today', exact: true }).click();
  await expect(page).toHaveURL(/preset=today/);
  // The previous range's figures stay on screen, dimmed and busy, until today's arrive.
  await expect(page.getByTestId('dashboard')).toHaveAttribute('data-range', /^(\d{4}-\d\d-\d\d)\.\.\1$/);
  await expect(page.getByTestId('dashboard')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('kpi-cards')).toBeVisible();
  await expect.poll(() => kpi(page, 'totalCalls')).toBeGreaterThanOrEqual(2);
  const before = await kpi(page, 'totalCalls');
  // Every KPI says its change in words (not colour alone).
  await expect(page.getByTestId('kpi-answered').getByTestId('kpi-change')).toHaveText(/Up|Down|No change|New/);
  await expect(page.getByTestId('chart-calls-over-time').locator('.recharts-surface').first()).toBeVisible();
  await expect(page.getByTestId('chart-by-number')).toContainText('Support hotline');
  await expect(page.getByTestId('heatmap')).toBeVisible();
  await expect(page.getByTestId('heatmap').locator('td[aria-label$="calls"], td[aria-label$="call"]').first()).toBeAttached();
  // The chart's figures as a table.
  await page.getByTestId('chart-calls-over-time').getByText('Table', { exact: true }).click();
  await expect(page.getByTestId('calls-over-time-table')).toBeVisible();

  // The dashboard as a PDF (docs/analytics.md "PDF downloads").
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/^dashboard_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(pdfPages(await pdf.path())).toBeGreaterThanOrEqual(1);

  // A second tab places a call from the Phone simulator; the dashboard is not reloaded.
  const handset = await context.newPage();
  await handset.goto('/simulator');
  await choose(handset, 'Company number', /Support hotline/);
  await handset.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(handset.getByTestId('call-result-status')).toBeVisible();
  await handset.close();

  await expect.poll(() => kpi(page, 'totalCalls'), { timeout: 20_000 }).toBe(before + 1);
});

test('a call report is filtered, its columns chosen, saved as a favourite, exported and downloaded', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Call reports' }).click();
  await expect(page.getByRole('heading', { name: 'Call reports', level: 1 })).toBeVisible();

  // Grouped by number: the seed's Support hotline has calls.
  await page
    .getByRole('textbox', { name: 'Group by' })
    .or(page.getByRole('combobox', { name: 'Group by' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Number', exact: true }).click();
  await expect(page).toHaveURL(/group=number(&|$)/);
  // Rows of the previous grouping stay on screen, dimmed and busy, until the new ones arrive.
  await expect(page.getByTestId('report-results')).toHaveAttribute('data-group', 'number');
  await expect(page.getByTestId('report-results')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('report-chart')).toBeVisible();
  await expect(page.getByTestId('report-row').filter({ hasText: 'Support hotline' })).toBeVisible();

  // Filter: answered calls only.
  await page.getByRole('button', { name: 'Filters' }).click();
  const panel = page.getByRole('dialog', { name: 'Filter calls' });
  await panel.getByRole('group', { name: 'Answer status' }).getByText('Answered', { exact: true }).click();
  await panel.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/answerStatus=answered/);
  await expect(page.getByTestId('report-results')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('active-filters')).toContainText('Answer status: answered');
  const row = page.getByTestId('report-row').filter({ hasText: 'Support hotline' });
  await expect(row).toBeVisible();
  // Missed is 0 for answered calls only.
  const headers = await page.getByTestId('report-table').locator('thead th').allInnerTexts();
  const missedAt = headers.findIndex((h) => h.trim() === 'Missed');
  expect(missedAt).toBeGreaterThan(0);
  await expect(row.locator('td').nth(missedAt)).toHaveText('0');

  // Columns: show talk time.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByLabel('Talk time', { exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('report-table').locator('thead')).toContainText('Talk time');

  // Save as favourite.
  const name = `Answered by number ${Date.now()}`;
  await page.getByRole('button', { name: 'Save as favorite' }).click();
  await page.getByRole('dialog', { name: 'Save as favorite' }).getByLabel('Name').fill(name);
  await page.getByRole('dialog', { name: 'Save as favorite' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Save as favorite' })).toBeHidden();

  // The report as a PDF.
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/^report_number_.*\.pdf$/);
  expect(pdfPages(await pdf.path())).toBeGreaterThanOrEqual(1);

  // The table as shown, with the chosen columns.
  const [table] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download table' }).click()]);
  const tableCsv = fs.readFileSync(await table.path(), 'utf8').split(/\r?\n/);
  expect(tableCsv[0]).toContain('Talk time');
  expect(tableCsv.some((l) => l.includes('Support hotline'))).toBe(true);

  // Export the calls: the spec's result message, then the file from the export-ready notice.
  const answered = Number((await page.getByTestId('report-total-calls').innerText()).match(/([\d,]+) answered/)![1]!.replace(/,/g, ''));
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export to CSV' });
  await dialog.getByRole('button', { name: 'Clear' }).click();
  for (const column of ['Call ID', 'Tracking number', 'Caller', 'Answer status', 'Duration (s)']) await dialog.getByLabel(column, { exact: true }).check();
  await dialog.getByRole('button', { name: 'Start export' }).click();
  await expect(page.getByText('Your export has started. You will be notified when the file is ready to download.')).toBeVisible();
  const link = page.getByTestId('export-download').first();
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = fs.readFileSync(await download.path(), 'utf8');
  const [header, ...lines] = file.trim().split(/\r?\n/);
  expect(header!.split(',')).toEqual(['Call ID', 'Tracking number', 'Caller', 'Answer status', 'Duration (s)']);
  // One line per answered call of the report.
  expect(lines).toHaveLength(answered);
  for (const line of lines) expect(line).toMatch(/answered/i);

  // The favourite reopens the same report.
  await page.goto('/favorite-reports');
  await page.getByRole('link', { name }).first().click();
  await expect(page).toHaveURL(/\/reports\?.*group=number/);
  await expect(page).toHaveURL(/answerStatus=answered/);
  await expect(page.getByTestId('report-results')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('report-table').locator('thead')).toContainText('Talk time', { timeout: 30_000 });
});

test('column presets: the dashboard’s messages export, the numbers list and the call flows list', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  const presetName = (what: string) => `${what} ${Date.now()}`;
  // The Columns popover of a list (Mantine names the popover after its button).
  const popover = page.getByRole('dialog', { name: 'Columns', exact: true });
  const saveAs = async (chooser: Locator, name: string) => {
    await chooser.getByLabel('Save as a new preset').fill(name);
    await chooser.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Column preset was successfully created').first()).toBeVisible();
  };

  // Dashboard → Export → Messages: the column chooser is in the dialog (kind dashboard_messages). Drop "Number name",
  // move "Message" before "Direction", save as a preset; the file has those columns in that order.
  await page.goto('/dashboard');
  await expect(page.getByTestId('kpi-cards')).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export to CSV' });
  await choose(page, 'What to export', 'Messages');
  const inline = dialog.getByTestId('column-chooser');
  // Unticked, a column moves from the shown ones (in order) to the hidden ones.
  await inline.getByRole('checkbox', { name: 'Number name' }).click();
  await expect(inline.getByRole('checkbox', { name: 'Number name' })).not.toBeChecked();
  await inline.getByRole('button', { name: 'Move Message up' }).click();
  const messagesPreset = presetName('Messages');
  await saveAs(inline, messagesPreset);
  const order = 'Message ID, Time, Number, From, To, Message, Direction, Attachments, Delivery state, Error code, Contact';
  await expect(dialog.getByTestId('export-column-order')).toHaveText(`The file has these columns, in this order: ${order}`);
  await dialog.getByRole('button', { name: 'Start export' }).click();
  await expect(page.getByText('Your export has started. You will be notified when the file is ready to download.')).toBeVisible();
  const link = page.getByTestId('export-download').first();
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const header = fs.readFileSync(await download.path(), 'utf8').split(/\r?\n/)[0]!;
  expect(header.split(',')).toEqual(order.split(', '));
  // After a reload the preset is applied again.
  await page.reload();
  await expect(page.getByTestId('kpi-cards')).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  await choose(page, 'What to export', 'Messages');
  await expect(dialog.getByTestId('export-column-order')).toHaveText(`The file has these columns, in this order: ${order}`);
  await expect(
    inline
      .getByRole('textbox', { name: 'Preset' })
      .or(inline.getByRole('combobox', { name: 'Preset' }))
      .first(),
  ).toHaveValue(messagesPreset);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Numbers: show Tags and Recording, save (kind numbers); the table shows them after a reload.
  await page.goto('/numbers');
  await expect(page.getByTestId('number-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await popover.getByRole('checkbox', { name: 'Tags' }).check();
  await popover.getByRole('checkbox', { name: 'Recording' }).check();
  await popover.getByRole('checkbox', { name: 'Added' }).click();
  await expect(popover.getByRole('checkbox', { name: 'Added' })).not.toBeChecked();
  await saveAs(popover, presetName('Numbers'));
  await page.keyboard.press('Escape');
  const numberHeaders = page.getByTestId('numbers-table').locator('thead th');
  await page.reload();
  await expect(page.getByTestId('number-row').first()).toBeVisible();
  await expect(numberHeaders).toContainText(['Label', 'Number', 'Type', 'Routing', 'Schedule', 'Tags', 'Recording']);
  expect(await numberHeaders.allInnerTexts()).not.toContain('Added');

  // Call flows (number templates): one template, then the Forwards column moved first and saved (kind call_flows).
  const me = await api(page, 'get', '/api/user');
  const companyId = (me.body.companies as Array<{ id: number }>)[0]!.id;
  const created = await api(page, 'post', `/api/companies/${companyId}/numberTemplates`, { name: `Sales line ${Date.now()}` });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  await page.goto('/number-templates');
  await expect(page.getByTestId('template-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  for (let i = 0; i < 3; i++) await popover.getByRole('button', { name: 'Move Forwards up' }).click();
  await saveAs(popover, presetName('Call flows'));
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByTestId('template-row').first()).toBeVisible();
  expect((await page.getByTestId('call-flows-table').locator('thead th').allInnerTexts()).slice(0, 2)).toEqual(['Forwards', 'Name']);
});

test('activity filters by type and report filters, and opens one tracked visit from a link', async ({ page }) => {
  await signIn(page);
  await page.goto('/activity?answerStatus=voicemail&messages=0');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const rows = page.getByTestId('activity-row');
  await expect(rows.first()).toBeVisible();
  // Only the seed's voicemail call: no messages, no answered calls.
  await expect(page.locator('[data-testid="activity-row"][data-kind="message"]')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Activity types' }).getByRole('checkbox', { name: 'Messages' })).not.toBeChecked();
  await expect(page.getByRole('button', { name: /More filters \(1 active\)/ })).toBeVisible();
  // The first page of 10 shows no progress bar (spec 001 §7).
  await expect(page.getByTestId('activity-progress')).toHaveCount(0);

  // A visit link from the tracking screens narrows the feed to that visit (none here: an empty state).
  await page.goto('/activity?dniSessionId=no-such-visit');
  await expect(page.getByTestId('activity-session-filter')).toContainText('no-such-visit');
  await expect(page.getByText('Nothing matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Show every visit' }).click();
  await expect(rows.first()).toBeVisible();
});

test('the analytics screens have no serious accessibility violation at desktop and phone width', async ({ page }) => {
  // Eight axe audits on a shared two-core machine.
  test.setTimeout(300_000);
  const findings: string[] = [];
  const audit = async (screen: string) => {
    // Let Mantine's fades finish (a half-faded text reads as low contrast).
    await page.waitForTimeout(400);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations.filter((x) => x.impact === 'critical' || x.impact === 'serious')) {
      findings.push(
        `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
      );
    }
  };
  await signIn(page);
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('/dashboard');
    await expect(page.getByTestId('kpi-cards')).toBeVisible();
    await expect(page.getByTestId('heatmap')).toBeVisible();
    await audit(`/dashboard ${viewport.width}`);
    await page.goto('/reports?group=number_day');
    await expect(page.getByTestId('report-table')).toBeVisible({ timeout: 30_000 });
    await audit(`/reports ${viewport.width}`);
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByRole('dialog', { name: 'Filter calls' })).toBeVisible();
    await audit(`/reports filters ${viewport.width}`);
    await page.keyboard.press('Escape');
    await page.goto('/activity');
    await expect(page.getByTestId('activity-row').first()).toBeVisible();
    await audit(`/activity ${viewport.width}`);
  }
  expect(findings, findings.join('\n')).toEqual([]);
});
