/**
 * Campaigns in the browser (spec 001 "Campaigns", docs/campaigns.md): import a CSV of contacts with a progress bar, make a group with them,
 * send a campaign with a merge field and an image to it from the editor, watch the counters move
 * to delivered, reply STOP from the Phone simulator, and see the contact unsubscribed in Contacts.
 * Quiet hours are turned off for the demo company first (Settings → Messaging): only the law's window
 * applies then (docs/quiet-hours.md), so the recipients are picked where it is daytime now. The editor
 * shows the segment count and warns about characters that force UCS-2; sending asks for a confirmation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { choose, signIn } from './helpers';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Recipients where the law allows texts for the next hour whatever the time of day: New York,
 * Honolulu, London or Tokyo (none of them has a weekday or holiday rule), with an hour of margin.
 */
function daytimeNumbers(): string[] {
  const places = [
    { zone: 'America/New_York', prefix: '+1212555019', from: 9, to: 19 },
    { zone: 'Pacific/Honolulu', prefix: '+1808555019', from: 9, to: 19 },
    { zone: 'Europe/London', prefix: '+44207946019', from: 9, to: 18 },
    { zone: 'Asia/Tokyo', prefix: '+8131234567', from: 9, to: 18 },
  ];
  const hourIn = (zone: string) => Number(new Date().toLocaleString('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit' }));
  const place = places.find((p) => hourIn(p.zone) >= p.from && hourIn(p.zone) < p.to)!;
  return [1, 2, 3].map((i) => `${place.prefix}${i}`);
}

async function openNav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

test('import contacts, send them an MMS campaign, and see a STOP reply unsubscribe one', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const numbers = daytimeNumbers();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `campaign-e2e-${testInfo.workerIndex}-`));
  const csvPath = path.join(dir, 'contacts.csv');
  const imagePath = path.join(dir, 'promo.png');
  fs.writeFileSync(
    csvPath,
    [
      'First Name,Last Name,Phone,Email',
      `Ada,Lovelace,${numbers[0]},ada@example.com`,
      `Grace,Hopper,${numbers[1]},grace@example.com`,
      `Alan,Turing,${numbers[2]},alan@example.com`,
    ].join('\n') + '\n',
  );
  fs.writeFileSync(imagePath, PNG);

  await signIn(page);

  // Quiet hours off for the demo company: only the law's window applies (daytime where the recipients are).
  await openNav(page, 'Settings');
  const messaging = page.getByTestId('messaging-settings');
  const quietHours = messaging.getByRole('switch', { name: 'Quiet hours for campaigns' });
  await expect(quietHours).toBeChecked();
  await quietHours.uncheck({ force: true });
  await expect(quietHours).not.toBeChecked();
  await messaging.getByRole('button', { name: 'Save messaging settings' }).click();
  await expect(page.getByText('Settings were successfully updated')).toBeVisible();

  // A group for the campaign.
  const groupName = `Spring launch ${stamp}`;
  await openNav(page, 'Groups');
  await page.getByRole('button', { name: 'New group' }).first().click();
  await page.getByLabel('Group name').fill(groupName);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('group-row').filter({ hasText: groupName })).toBeVisible();

  // Import the CSV into that group, watching the progress bar reach done.
  await openNav(page, 'Contacts');
  await page.getByRole('button', { name: 'Import' }).first().click();
  const wizard = page.getByRole('dialog', { name: 'Import contacts' });
  await wizard.locator('input[type=file]').setInputFiles(csvPath);
  await expect(wizard.getByTestId('import-preview')).toContainText('Lovelace');
  await expect(
    wizard
      .getByRole('textbox', { name: 'First name' })
      .or(wizard.getByRole('combobox', { name: 'First name' }))
      .first(),
  ).toHaveValue('First Name');
  // The phone field takes several columns (a multi-select): the detected one shows as its pill.
  await expect(
    wizard.locator('.mantine-InputWrapper-root', { has: page.getByText('Phone number', { exact: true }) }).locator('.mantine-Pill-label'),
  ).toHaveText(['Phone']);
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('combobox', { name: 'Add the imported contacts to groups' }).click();
  await page.getByRole('option', { name: groupName }).click();
  await wizard.getByRole('button', { name: 'Start import' }).click();
  const bar = wizard.getByTestId('import-progress-bar');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('data-done', 'true');
  await expect(wizard.getByTestId('import-summary')).toContainText('3 added');
  // The entry goes away 5 s after the import finished, and the list shows the contacts.
  await expect(wizard).toBeHidden({ timeout: 10_000 });
  for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) await expect(page.getByTestId('contact-row').filter({ hasText: name })).toBeVisible();

  // The campaign, with a merge field and an image, to the group.
  await openNav(page, 'Campaigns');
  await page.getByRole('link', { name: 'New campaign' }).first().click();
  await page.getByLabel('Title').fill(`Launch ${stamp}`);
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('Hi ');
  await page.getByRole('button', { name: 'First Name', exact: true }).click();
  await message.press('End');
  await message.pressSequentially(', our spring menu is here!');
  await expect(message).toHaveValue('Hi %%firstname%%, our spring menu is here!');
  await expect(page.getByLabel('Unsubscribe text')).toHaveValue('Reply STOP to stop');
  await expect(page.getByTestId('campaign-preview')).toContainText('Hi Jamie, our spring menu is here!');
  // Segments, live: GSM-7 text in one segment; a curly apostrophe forces UCS-2 and is named.
  await expect(page.getByTestId('segment-counter')).toHaveText('1 segment · GSM-7');
  await expect(page.getByTestId('ucs2-warning')).toBeHidden();
  await message.press('End');
  // 3 + 10 (merge field) + 26 + 6, a line break and the 18 of the unsubscribe text: 64 of UCS-2's 70.
  await message.pressSequentially(' Don\u2019t');
  await expect(page.getByTestId('segment-counter')).toHaveText('1 segment · UCS-2');
  await expect(page.getByTestId('ucs2-warning')).toBeVisible();
  await expect(page.getByTestId('ucs2-char')).toHaveText(['\u2019']);
  await message.pressSequentially(' '.concat('x'.repeat(40)));
  await expect(page.getByTestId('segment-counter')).toHaveText('2 segments · UCS-2');
  await message.fill('Hi %%firstname%%, our spring menu is here!');
  await expect(page.getByTestId('ucs2-warning')).toBeHidden();
  await expect(page.getByTestId('segment-counter')).toHaveText('1 segment · GSM-7');
  await page.locator('input[type=file]').setInputFiles(imagePath);
  await expect(page.getByTestId('campaign-media').getByRole('img', { name: 'promo.png' })).toBeVisible();
  await expect(page.getByTestId('char-counter')).toContainText('MMS');
  await page.getByRole('combobox', { name: 'Groups', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(groupName) }).click();
  await page.keyboard.press('Escape');
  await page
    .getByRole('textbox', { name: 'Send from number' })
    .or(page.getByRole('combobox', { name: 'Send from number' }))
    .first()
    .click();
  // The demo's main line: registered for 10DLC by the demo seed (campaigns from unregistered numbers are refused).
  const numberOption = page.getByRole('option', { name: /Main line/ }).first();
  const companyNumber = (await numberOption.innerText()).trim();
  await numberOption.click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  // Sending asks first: how many recipients, when, and what each message is.
  const confirm = page.getByRole('dialog', { name: 'Send this campaign?' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('send-recipients')).toHaveText('up to 3 recipients');
  await expect(confirm.getByTestId('send-when')).toHaveText('starting now');
  await expect(confirm.getByTestId('send-summary')).toContainText('Each message is an MMS.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Send this campaign?' }).getByRole('button', { name: 'Send campaign' }).click();

  // The detail page: counters move live until all three are delivered.
  await expect(page.getByTestId('campaign-counters')).toBeVisible();
  await expect(page.getByTestId('counter-delivered')).toHaveText('3', { timeout: 60_000 });
  await expect(page.getByTestId('counter-sent')).toHaveText('3');
  await expect(page.getByTestId('campaign-event')).toHaveCount(3);
  const campaignUrl = page.url();

  // Ada replies STOP from the Phone simulator.
  await openNav(page, 'Phone simulator');
  await page.getByLabel('Your outside phone number').fill(numbers[0]!);
  await choose(page, 'Company number', companyNumber);
  await page.getByLabel('Text message').fill('STOP');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('handset-message').filter({ hasText: 'STOP' }).first()).toBeVisible();

  // Contacts shows her unsubscribed; the campaign counts the unsubscribe.
  await openNav(page, 'Contacts');
  await page.getByLabel('Search contacts').fill('Lovelace');
  const ada = page.getByTestId('contact-row').filter({ hasText: 'Ada Lovelace' });
  await expect(ada.getByTestId('contact-unsubscribed')).toBeVisible();
  await expect(page.getByTestId('contact-row').filter({ hasText: 'Grace Hopper' })).toHaveCount(0);
  await page.goto(campaignUrl);
  await expect(page.getByTestId('counter-unsubscribed')).toHaveText('1', { timeout: 30_000 });
});
