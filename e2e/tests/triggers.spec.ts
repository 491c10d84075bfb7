/**
 * Number triggers in the browser (docs/numbers.md "Triggers"): on the demo's Support hotline, an e-mail trigger for
 * texts is added; a text from the Phone simulator fires it: the card says when it was last sent and the e-mail is in
 * the development outbox; a test firing is sent on demand. A webhook trigger reveals its own signing secret. Both
 * are removed again.
 */
import { expect, test } from '@playwright/test';
import { DEMO, api, choose, signIn } from './helpers';

test('a text to a number fires its e-mail trigger; a webhook trigger shows its signing secret', async ({ page, context }) => {
  await signIn(page);
  // The Support hotline's own page (other rows may name it too: numbers whose calls ring like it).
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const numbers = await api(page, 'get', `/api/companies/${companyId}/numbers?perPage=100`);
  const hotline = ((numbers.body.data ?? numbers.body) as Array<{ id: number; label: string | null }>).find((n) => n.label === 'Support hotline');
  expect(hotline, JSON.stringify(numbers.body).slice(0, 300)).toBeTruthy();
  await page.goto(`/numbers/${hotline!.id}`);
  await expect(page).toHaveURL(/\/numbers\/\d+/);
  const card = page.getByTestId('triggers-card');
  await expect(card).toBeVisible();

  // The person sends the alerts to themselves: the development outbox shows a person only their own mail.
  const to = DEMO.email;
  await choose(page, 'When', 'Text received');
  await choose(page, 'Then', 'Send an e-mail');
  await card.getByLabel('E-mail address').fill(to);
  await card.getByRole('button', { name: 'Add trigger' }).click();
  const row = card.getByTestId('trigger-row').filter({ hasText: to });
  await expect(row).toContainText('Text received → Send an e-mail');
  await expect(row.getByTestId('trigger-last-fired')).toHaveText('Not fired yet');

  // A customer texts the number from the Phone simulator.
  const handset = await context.newPage();
  await handset.goto('/simulator');
  await choose(handset, 'Company number', /Support hotline/);
  const text = `Do you service water heaters? (${Date.now()})`;
  await handset.getByLabel('Text message').fill(text);
  await handset.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(handset.getByTestId('handset-message').filter({ hasText: text })).toBeVisible();
  await handset.close();

  // The card tells when the trigger last fired (after a reload: the card does not follow it live).
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('triggers-card').getByTestId('trigger-row').filter({ hasText: to }).getByTestId('trigger-last-fired')).toContainText(
      'Last sent',
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 45_000 });

  // A webhook trigger has a signing secret of its own, revealed on demand. An address inside a network is refused.
  await choose(page, 'When', 'Missed call');
  await choose(page, 'Then', 'Call a webhook');
  await card.getByLabel('Webhook URL').fill('http://192.168.1.20/hook');
  await card.getByRole('button', { name: 'Add trigger' }).click();
  await expect(card.getByText('The target cannot receive webhooks: address 192.168.1.20 is not public.')).toBeVisible();
  await card.getByLabel('Webhook URL').fill('https://example.com/switchboard-hook');
  await card.getByRole('button', { name: 'Add trigger' }).click();
  const hook = card.getByTestId('trigger-row').filter({ hasText: 'https://example.com/switchboard-hook' });
  await expect(hook).toBeVisible();
  await hook.getByRole('button', { name: 'Show signing secret' }).click();
  await expect(hook.getByTestId('trigger-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{32}$/);

  // A test of the e-mail trigger, at once.
  await card
    .getByTestId('trigger-row')
    .filter({ hasText: to })
    .getByRole('button', { name: /^Send a test/ })
    .click();
  await expect(page.getByText(`A test e-mail was sent to ${to}.`)).toBeVisible();

  // The e-mail, in the development outbox.
  const mailPage = await context.newPage();
  await mailPage.goto('/outbox');
  // The trigger's mail (an integration of the company may mail the same text as a lead too).
  const mail = mailPage.getByTestId('outbox-mail').filter({ hasText: text }).filter({ hasText: 'Text received from' });
  await expect(mail).toContainText(/Text received from .* on Support hotline/);
  await expect(mailPage.getByTestId('outbox-mail').filter({ hasText: '[Test] Text received from' }).first()).toBeVisible();
  await mailPage.close();

  // Clean up: both triggers removed.
  await card
    .getByTestId('trigger-row')
    .filter({ hasText: to })
    .getByRole('button', { name: /Remove trigger/ })
    .click();
  await hook.getByRole('button', { name: /Remove trigger/ }).click();
  await expect(card.getByTestId('trigger-row')).toHaveCount(0);
});
