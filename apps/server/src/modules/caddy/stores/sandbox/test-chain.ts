/**
 * TEST-ONLY signing keys of the sandbox store (docs/consumer-area.md "Sandbox store"). Nothing here is Apple's or
 * Google's: every key is generated in memory when the sandbox is first used and never leaves the process.
 *
 * - An App Store-shaped certificate chain: a self-signed test root, an intermediate CA carrying Apple's WWDR marker
 *   extension (1.2.840.113635.100.6.2.1) and a leaf carrying Apple's receipt-signing marker (1.2.840.113635.100.6.11.1),
 *   all P-256, so a JWS signed by the leaf with `x5c: [leaf, intermediate, root]` passes the official
 *   `SignedDataVerifier`'s checks when the test root is the trusted root (and only then).
 * - An RSA key that signs the sandbox's Pub/Sub push OIDC tokens (RS256, `kid` below).
 * Certificates are built with `jsrsasign` (Node can verify but not issue X.509 certificates).
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import jsrsasign from 'jsrsasign';

const generateKeyPair = promisify(crypto.generateKeyPair);

const APPLE_WWDR_MARKER = '1.2.840.113635.100.6.2.1';
const APPLE_LEAF_MARKER = '1.2.840.113635.100.6.11.1';
/** Valid from 2000 to 2049 (UTCTime), so notifications dated in the past (out-of-order tests) still verify. */
const NOT_BEFORE = '000101000000Z';
const NOT_AFTER = '491231235959Z';

/** The sandbox's test keys. */
export type TestKeys = {
  /** The test root (DER): the sandbox's `SignedDataVerifier` trusts only this. */
  rootDer: Buffer;
  /** `x5c` of the App Store JWS header: leaf, intermediate, root (base64 DER). */
  x5c: [string, string, string];
  /** The leaf's private key (ES256 signing of notifications). */
  leafKey: crypto.KeyObject;
  /** The push-token key (RS256) and its public key (PEM) under `pushKid`. */
  pushKey: crypto.KeyObject;
  pushPublicPem: string;
  pushKid: string;
};

async function ecPair(): Promise<{ privatePem: string; publicPem: string; key: crypto.KeyObject }> {
  const { privateKey, publicKey } = await generateKeyPair('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    key: privateKey,
  };
}

/** One certificate signed by `issuerKeyPem` (SHA256withECDSA). */
function certificate(opts: { serial: number; subject: string; issuer: string; publicPem: string; issuerKeyPem: string; ca: boolean; marker: string }): Buffer {
  const ext: Record<string, unknown>[] = [
    { extname: 'basicConstraints', critical: true, cA: opts.ca },
    { extname: 'keyUsage', critical: true, names: opts.ca ? ['keyCertSign', 'cRLSign'] : ['digitalSignature'] },
  ];
  if (opts.marker) ext.push({ extname: opts.marker, extn: '0500' }); // DER NULL, as Apple's markers carry
  const cert = new jsrsasign.KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { int: opts.serial },
    issuer: { str: opts.issuer },
    subject: { str: opts.subject },
    notbefore: NOT_BEFORE,
    notafter: NOT_AFTER,
    sbjpubkey: opts.publicPem,
    ext,
    sigalg: 'SHA256withECDSA',
    cakey: opts.issuerKeyPem,
  } as unknown as ConstructorParameters<typeof jsrsasign.KJUR.asn1.x509.Certificate>[0]);
  return Buffer.from(cert.getEncodedHex(), 'hex');
}

/**
 * New test keys (key pairs made in the thread pool; the three certificates take a few milliseconds of signing). The
 * sandbox store makes them once, on first use. TEST-ONLY: they sign the sandbox store's notifications and nothing else.
 */
export async function makeTestKeys(): Promise<TestKeys> {
  const [root, intermediate, leaf, push] = await Promise.all([ecPair(), ecPair(), ecPair(), generateKeyPair('rsa', { modulusLength: 2048 })]);
  const rootName = '/CN=Switchboard TEST Root CA (sandbox store only)/O=Switchboard TEST/C=US';
  const intermediateName = '/CN=Switchboard TEST WWDR CA (sandbox store only)/O=Switchboard TEST/C=US';
  const leafName = '/CN=Switchboard TEST App Store signing (sandbox store only)/O=Switchboard TEST/C=US';
  const rootDer = certificate({
    serial: 1,
    subject: rootName,
    issuer: rootName,
    publicPem: root.publicPem,
    issuerKeyPem: root.privatePem,
    ca: true,
    marker: '',
  });
  const intermediateDer = certificate({
    serial: 2,
    subject: intermediateName,
    issuer: rootName,
    publicPem: intermediate.publicPem,
    issuerKeyPem: root.privatePem,
    ca: true,
    marker: APPLE_WWDR_MARKER,
  });
  const leafDer = certificate({
    serial: 3,
    subject: leafName,
    issuer: intermediateName,
    publicPem: leaf.publicPem,
    issuerKeyPem: intermediate.privatePem,
    ca: false,
    marker: APPLE_LEAF_MARKER,
  });
  return {
    rootDer,
    x5c: [leafDer.toString('base64'), intermediateDer.toString('base64'), rootDer.toString('base64')],
    leafKey: leaf.key,
    pushKey: push.privateKey,
    pushPublicPem: push.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    pushKid: `sandbox-${crypto.randomBytes(8).toString('hex')}`,
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS of `payload` signed ES256 by the test leaf, with the App Store's header (`alg`, `x5c`). */
export function signAppleJws(k: TestKeys, payload: unknown): string {
  const input = `${b64url({ alg: 'ES256', x5c: k.x5c })}.${b64url(payload)}`;
  const sig = crypto.sign('sha256', Buffer.from(input), { key: k.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

/** A Google-shaped OIDC token (RS256, `kid`) for a Pub/Sub push, signed by the sandbox's push key. */
export function signPushToken(k: TestKeys, claims: Record<string, unknown>): string {
  const input = `${b64url({ alg: 'RS256', kid: k.pushKid, typ: 'JWT' })}.${b64url(claims)}`;
  const sig = crypto.sign('sha256', Buffer.from(input), k.pushKey);
  return `${input}.${sig.toString('base64url')}`;
}
