/**
 * The inbox as a new user meets it (spec 001 "Inbox", docs/messaging.md): the conversation list
 * loads more as it scrolls, with loading and end states; a note shows in the list as a note; and
 * on a phone-sized screen (375×812) the avatar, the reply box and Archive are on screen and
 * Settings is reachable above Sign out.
 */
import { expect, test, type Page } from '@playwright/test';
import { signIn, api } from './helpers';

/** The demo company's id and one of its business numbers (from its inbox). */
async function demoCompany(page: Page): Promise<{ companyId: number; number: string }> {
  const me = await api(page, 'get', '/api/user');
  const companyId = (me.body.companies as Array<{ id: number }>)[0]!.id;
  const list = await api(page, 'get', `/api/companies/${companyId}/conversations?perPage=1`);
  return { companyId, number: list.body.data[0].number.number as string };
}

test('the conversation list loads more as it scrolls, then says it has shown everything; a note previews as a note', async ({ page }) => {
  await signIn(page);
  const { companyId, number } = await demoCompany(page);
  const base = 1000 + Math.floor(Math.random() * 8000);
  for (let i = 0; i < 12; i++) {
    const r = await api(page, 'post', '/api/simulator/messages', { from: `+1646555${base + i}`, to: number, body: `Scroll test ${i}` });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
  const total = (await api(page, 'get', `/api/companies/${companyId}/conversations?perPage=100`)).body.data.length as number;
  expect(total).toBeGreaterThan(10);

  // A note on the newest conversation: the list previews it as a note, not as "You: …".
  const newest = (await api(page, 'get', `/api/companies/${companyId}/conversations?perPage=1`)).body.data[0];
  expect((await api(page, 'post', `/api/companies/${companyId}/conversations/${newest.id}/notes`, { body: 'Call back after lunch' })).status).toBe(201);

  await page.goto('/inbox');
  const rows = page.getByTestId('conversation-row');
  await expect(rows.first()).toBeVisible();
  const first = rows.first().getByTestId('conversation-preview');
  await expect(first).toHaveAttribute('data-kind', 'note');
  await expect(first).toHaveText('Note: Call back after lunch');
  await expect(page.getByTestId('conversation-list').getByText('You: Call back after lunch')).toHaveCount(0);

  // Scrolling the list loads the next cursor pages (5 at a time) until the end.
  const card = page.getByTestId('conversation-list-card');
  await expect(async () => {
    await card.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    expect(await rows.count()).toBe(total);
  }).toPass({ timeout: 30_000 });
  await card.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.getByTestId('conversation-list-done')).toHaveText('No more conversations');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test.describe('phone-sized screen', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('avatar, reply box and Archive are on screen; Settings is reachable above Sign out', async ({ page }) => {
    await signIn(page);
    const width = 375;
    const height = 812;
    const inside = async (name: string, box: { x: number; y: number; width: number; height: number } | null) => {
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(width);
      expect(box!.y, name).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, name).toBeLessThanOrEqual(height);
    };

    await page.goto('/inbox');
    await inside('avatar', await page.getByRole('button', { name: 'Account menu' }).boundingBox());
    await page.getByTestId('conversation-row').first().click();
    await expect(page.getByTestId('conversation-thread')).toBeVisible();
    await expect(page.getByTestId('conversation-list')).toHaveCount(0);
    await inside('reply box', await page.getByPlaceholder('Write a reply…').boundingBox());
    await inside('Archive', await page.getByRole('button', { name: 'Archive' }).boundingBox());
    await inside('avatar (thread)', await page.getByRole('button', { name: 'Account menu' }).boundingBox());
    await page.screenshot({ path: test.info().outputPath('phone-thread.png') });

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const settings = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true });
    await settings.scrollIntoViewIfNeeded();
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await inside('Settings', await settings.boundingBox());
    await inside('Sign out', await signOut.boundingBox());
    const s = (await settings.boundingBox())!;
    const o = (await signOut.boundingBox())!;
    expect(s.y + s.height, 'Settings ends above Sign out').toBeLessThanOrEqual(o.y);
    await page.screenshot({ path: test.info().outputPath('phone-nav.png') });
    await settings.click();
    await expect(page).toHaveURL(/\/settings$/);
  });
});
