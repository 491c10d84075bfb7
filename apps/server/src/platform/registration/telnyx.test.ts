/**
 * The Telnyx registry's webhook check (docs/sms-verification.md "Telnyx"): a body signed with Ed25519 over
 * `{timestamp}|{body}` by the key pair whose public half is TELNYX_PUBLIC_KEY is accepted and names the registry object;
 * a wrong key, an altered body or an old timestamp is refused. No network: only the SDK's verification runs.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RegistrySignatureError } from './registry.port.js';
import { TelnyxRegistry } from './telnyx.js';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { publicB64: Buffer.from(raw).toString('base64'), privateKey };
}

function signed(body: string, privateKey: ReturnType<typeof keyPair>['privateKey'], at = Math.floor(Date.now() / 1000)) {
  const signature = sign(null, Buffer.from(`${at}|${body}`), privateKey).toString('base64');
  return { 'telnyx-signature-ed25519': signature, 'telnyx-timestamp': String(at) };
}

describe('TelnyxRegistry.parseWebhook', () => {
  const { publicB64, privateKey } = keyPair();
  const registry = new TelnyxRegistry('KEY_test', publicB64);

  it('accepts a signed 10DLC campaign event and names the campaign', async () => {
    const body = JSON.stringify({ data: { id: 'evt-1', event_type: '10dlc.campaign.update' }, campaignId: 'C4X7ZQ1', eventType: 'MNO_REVIEW' });
    expect(await registry.parseWebhook(body, signed(body, privateKey))).toEqual({ eventId: 'evt-1', registryId: 'C4X7ZQ1', subject: 'campaign' });
    const brand = JSON.stringify({ data: { id: 'evt-2' }, brandId: 'BKQ3PDR', eventType: 'BRAND_ADD' });
    expect(await registry.parseWebhook(brand, signed(brand, privateKey))).toEqual({ eventId: 'evt-2', registryId: 'BKQ3PDR', subject: 'brand' });
  });

  it('refuses another key, an altered body and an old timestamp', async () => {
    const body = JSON.stringify({ data: { id: 'evt-3' }, campaignId: 'C4X7ZQ1' });
    const other = keyPair();
    await expect(registry.parseWebhook(body, signed(body, other.privateKey))).rejects.toBeInstanceOf(RegistrySignatureError);
    await expect(registry.parseWebhook(body.replace('C4X7ZQ1', 'C0000000'), signed(body, privateKey))).rejects.toBeInstanceOf(RegistrySignatureError);
    await expect(registry.parseWebhook(body, signed(body, privateKey, Math.floor(Date.now() / 1000) - 3600))).rejects.toBeInstanceOf(RegistrySignatureError);
    await expect(registry.parseWebhook(body, {})).rejects.toBeInstanceOf(RegistrySignatureError);
  });
});
