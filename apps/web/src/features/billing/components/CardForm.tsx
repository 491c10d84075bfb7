/**
 * The card form (docs/billing.md "Card"): the card is tokenized by the payment gateway in the browser and only its
 * token reaches the product. With Stripe: the Payment Element (stripe-js, setup mode, manual payment-method
 * creation), 3-D Secure through `handleNextAction`. With the sandbox: a small form posting to the sandbox gateway's
 * tokenization endpoint (test cards 4242 4242 4242 4242, 4000 0000 0000 0002, 4000 0025 0000 3155,
 * 4000 0000 0000 0341), 3-D Secure as a confirmation dialog.
 */
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { HttpError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSaveBilling, useSecurityToken } from '../api/billing';

type Gateway = { gateway: 'sandbox' | 'stripe'; publishableKey: string; tokenizeUrl: string | null };

async function sandboxPost<T>(url: string, body: unknown, key?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const data = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(data.message ?? 'The card could not be read.');
  return data;
}

export function CardForm({ onDone }: { onDone: () => void }) {
  const token = useSecurityToken();
  if (!token.data) return <Text c="dimmed">Loading the payment form…</Text>;
  return token.data.gateway === 'stripe' ? <StripeCardForm gateway={token.data} onDone={onDone} /> : <SandboxCardForm gateway={token.data} onDone={onDone} />;
}

/** After a token: save it; a card needing authentication is confirmed with `authenticate`, then saved again. */
function useSaveCard(onDone: () => void, authenticate: (clientSecret: string) => Promise<string | null>) {
  const save = useSaveBilling();
  const [error, setError] = useState<string | null>(null);
  const run = async (paymentMethodId: string) => {
    setError(null);
    try {
      let r = await save.mutateAsync({ chargify_token: paymentMethodId });
      if (r.requiresAction) {
        const setup = await authenticate(r.requiresAction.clientSecret);
        if (!setup) return setError('The card was not authenticated.');
        r = await save.mutateAsync({ setup_intent: setup });
      }
      if (r.message) notify.success(r.message);
      onDone();
    } catch (e) {
      if (e instanceof HttpError && e.status === 422) setError(Object.values(e.fieldErrors).flat()[0] ?? e.message);
      else if (!(e instanceof HttpError)) setError(e instanceof Error ? e.message : 'The card could not be saved.');
    }
  };
  return { run, error, setError, pending: save.isPending };
}

function SandboxCardForm({ gateway, onDone }: { gateway: Gateway; onDone: () => void }) {
  const [f, setF] = useState({ number: '', exp: '', cvc: '' });
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<{ secret: string; resolve: (v: string | null) => void } | null>(null);
  const card = useSaveCard(onDone, (secret) => new Promise((resolve) => setChallenge({ secret, resolve })));
  const submit = async () => {
    const [mm, yy] = f.exp.split('/').map((p) => p.trim());
    setBusy(true);
    try {
      const pm = await sandboxPost<{ id: string }>(gateway.tokenizeUrl!, { number: f.number, exp_month: mm, exp_year: yy, cvc: f.cvc }, gateway.publishableKey);
      await card.run(pm.id);
    } catch (e) {
      card.setError(e instanceof Error ? e.message : 'The card could not be read.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Test mode (sandbox gateway): use 4242 4242 4242 4242 with any future expiry and CVC.
        </Text>
        <TextInput
          label="Card number"
          autoComplete="cc-number"
          inputMode="numeric"
          required
          value={f.number}
          onChange={(e) => setF({ ...f, number: e.currentTarget.value })}
        />
        <Group grow>
          <TextInput
            label="Expiry (MM/YY)"
            autoComplete="cc-exp"
            placeholder="12/30"
            required
            value={f.exp}
            onChange={(e) => setF({ ...f, exp: e.currentTarget.value })}
          />
          <TextInput
            label="CVC"
            autoComplete="cc-csc"
            inputMode="numeric"
            required
            value={f.cvc}
            onChange={(e) => setF({ ...f, cvc: e.currentTarget.value })}
          />
        </Group>
        {card.error ? (
          <Alert color="red" role="alert">
            {card.error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={busy || card.pending}>
            Save card
          </Button>
        </Group>
      </Stack>
      <Modal opened={challenge !== null} onClose={() => (challenge?.resolve(null), setChallenge(null))} title="Authenticate your card">
        <Text mb="md">Your bank asks you to confirm this card (3-D Secure test).</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => (challenge?.resolve(null), setChallenge(null))}>
            Fail authentication
          </Button>
          <Button
            onClick={async () => {
              const c = challenge!;
              setChallenge(null);
              const r = await sandboxPost<{ id: string }>(gateway.tokenizeUrl!.replace(/payment_methods$/, 'setup_intents/authenticate'), {
                setup_intent: c.secret,
              }).catch(() => null);
              c.resolve(r?.id ?? null);
            }}
          >
            Complete authentication
          </Button>
        </Group>
      </Modal>
    </form>
  );
}

function StripeCardForm({ gateway, onDone }: { gateway: Gateway; onDone: () => void }) {
  const mount = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [busy, setBusy] = useState(false);
  const card = useSaveCard(onDone, async (clientSecret) => {
    if (!stripe) return null;
    const r = await stripe.stripe.handleNextAction({ clientSecret });
    return r.error ? null : ((r as { setupIntent?: { id: string } }).setupIntent?.id ?? null);
  });
  useEffect(() => {
    let cancelled = false;
    void import('@stripe/stripe-js').then(async ({ loadStripe }) => {
      const s = await loadStripe(gateway.publishableKey);
      if (!s || cancelled || !mount.current) return;
      const elements = s.elements({ mode: 'setup', currency: 'usd', paymentMethodCreation: 'manual' });
      elements.create('payment').mount(mount.current);
      setStripe({ stripe: s, elements });
    });
    return () => {
      cancelled = true;
    };
  }, [gateway.publishableKey]);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (!stripe) return;
        setBusy(true);
        try {
          const submitted = await stripe.elements.submit();
          if (submitted.error) return card.setError(submitted.error.message ?? 'Check the card details.');
          const pm = await stripe.stripe.createPaymentMethod({ elements: stripe.elements });
          if (pm.error) return card.setError(pm.error.message ?? 'The card could not be read.');
          await card.run(pm.paymentMethod.id);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Stack gap="sm">
        <div ref={mount} />
        {card.error ? (
          <Alert color="red" role="alert">
            {card.error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={busy || card.pending} disabled={!stripe}>
            Save card
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
