/** Shared steps of the browser tests. */
import { expect, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@switchboard.local', password: 'demo-password-2026' };

/** Signs in through the sign-in form and waits for the app shell. */
export async function signIn(page: Page, email = DEMO.email, password = DEMO.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** Picks an option of a Mantine Select found by its accessible name: the option named exactly `option`, or matching it. */
export async function choose(page: Page, selectName: string, option: string | RegExp): Promise<void> {
  await page
    .getByRole('textbox', { name: selectName, exact: true })
    .or(page.getByRole('combobox', { name: selectName, exact: true }))
    .first()
    .click();
  await page.getByRole('option', typeof option === 'string' ? { name: option, exact: true } : { name: option }).click();
}

const CANDIDATE_ZONES = [
  'Pacific/Honolulu',
  'America/Los_Angeles',
  'America/Chicago',
  'America/New_York',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A time zone where it is now between 10:00 and 15:59 local time, and that weekday's name: a
 * business-hours schedule of 8:00am–6:00pm there is open for the next two hours whatever the
 * machine's clock says.
 */
export function zoneInBusinessHours(now = new Date()): { zone: string; dayName: string } {
  for (const zone of CANDIDATE_ZONES) {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23', weekday: 'long' }).formatToParts(now);
    const hour = Number(parts.find((p) => p.type === 'hour')!.value);
    const day = parts.find((p) => p.type === 'weekday')!.value;
    if (hour >= 10 && hour <= 15 && DAY_NAMES.includes(day)) return { zone, dayName: day };
  }
  throw new Error('no candidate zone is in business hours now');
}

/**
 * In the routing editor's Business hours: a Custom schedule in a zone where it is business hours
 * now (`zoneInBusinessHours`), open 8:00am–6:00pm on today's weekday there. @returns that weekday's name.
 */
export async function chooseHoursOpenNow(page: Page): Promise<string> {
  const { zone, dayName } = zoneInBusinessHours();
  // The select labels zones as people read them: "America/Sao Paulo (GMT-3)".
  const label = zone.replaceAll('_', ' ');
  await choose(page, 'Schedule', 'Custom');
  await page
    .getByRole('textbox', { name: 'Timezone' })
    .or(page.getByRole('combobox', { name: 'Timezone' }))
    .first()
    .fill(label);
  await page
    .getByRole('option', { name: new RegExp(label.replace('/', '\\/')) })
    .first()
    .click();
  await choose(page, `${dayName} open`, '8:00am');
  await choose(page, `${dayName} close`, '6:00pm');
  return dayName;
}

/**
 * Numbers → Buy a number: searches local numbers in `areaCode`, picks the first result, checks the
 * confirmation step (the number, its type and region) and buys it, then waits for its row.
 * @returns the bought number as displayed, e.g. "(415) 555-0123", and its row.
 */
export async function buyLocalNumber(page: Page, areaCode: string) {
  await page.getByRole('link', { name: 'Numbers' }).click();
  await page.getByRole('button', { name: 'Buy a number' }).first().click();
  await page.getByLabel('Area code').fill(areaCode);
  await page.getByRole('button', { name: 'Search' }).click();
  const result = page.getByTestId('number-result').first();
  await expect(result).toBeVisible();
  const bought = (await result.innerText()).match(new RegExp(`\\(${areaCode}\\) \\d{3}-\\d{4}`))![0];
  await result.getByRole('button', { name: 'Buy', exact: true }).click();
  const confirmation = page.getByTestId('buy-confirmation');
  await expect(confirmation.getByTestId('buy-confirmation-number')).toHaveCount(1);
  await expect(confirmation.getByTestId('buy-confirmation-number')).toContainText(bought);
  await expect(confirmation.getByTestId('buy-confirmation-number')).toContainText('Local');
  await confirmation.getByRole('button', { name: `Buy ${bought}` }).click();
  const row = page.getByTestId('number-row').filter({ hasText: bought });
  await expect(row).toBeVisible();
  return { bought, row };
}

/** The XSRF header of the page's session (the API refuses state-changing calls without it). */
export async function xsrf(page: Page): Promise<Record<string, string>> {
  const c = (await page.context().cookies()).find((x) => x.name === 'XSRF-TOKEN');
  return c ? { 'X-XSRF-TOKEN': decodeURIComponent(c.value) } : {};
}

/** Calls the product's API with the page's session: `{status, body}` (body null when not JSON). */
export async function api(page: Page, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, data?: unknown) {
  const res = await page.request[method](url, { data, headers: { accept: 'application/json', ...(await xsrf(page)) } });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

/**
 * Buys a random sandbox number of area code `areaCode` for the signed-in user's first company through the API and
 * applies `setup` (a `PUT /api/numbers/{id}` body). @returns the company id and the number's id and E.164.
 */
export async function buyNumberWith(page: Page, areaCode: string, setup: Record<string, unknown>): Promise<{ companyId: number; id: number; number: string }> {
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const found = await api(page, 'get', `/api/numbers/search?type=local&areaCode=${areaCode}&limit=20`);
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const bought = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const put = await api(page, 'put', `/api/numbers/${bought.body.id}`, setup);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { companyId, id: bought.body.id as number, number: bought.body.number as string };
}
