/**
 * With CARRIER=twilio the browser is a real Twilio Voice client: the `@twilio/voice-sdk` Device is
 * registered with the access token from POST .../in-app-calling/token (identity `user_{id}`) and
 * keeps the latest incoming call, which is accepted after our answer API claimed the call (first
 * answer wins) or rejected on Decline. The SDK is loaded lazily, so the sandbox never loads it.
 */
type TwilioCall = { accept(): void; reject(): void; disconnect(): void; mute(on: boolean): void; on(event: string, fn: () => void): void };
type TwilioDevice = { register(): Promise<void>; destroy(): void; on(event: string, fn: (arg: never) => void): void; updateToken(token: string): void };

let device: TwilioDevice | null = null;
let incoming: TwilioCall | null = null;

/** Registers the Voice SDK device with `token` (replacing an earlier one). */
export async function registerTwilioDevice(token: string): Promise<void> {
  const { Device } = await import('@twilio/voice-sdk');
  device?.destroy();
  const d = new Device(token, { closeProtection: true }) as unknown as TwilioDevice;
  d.on('incoming', ((call: TwilioCall) => {
    incoming = call;
    call.on('cancel', () => {
      if (incoming === call) incoming = null;
    });
  }) as (arg: never) => void);
  await d.register();
  device = d;
}

/** Unregisters the device (going away, signing out). */
export function destroyTwilioDevice(): void {
  device?.destroy();
  device = null;
  incoming = null;
}

/** Accepts / rejects / ends the pending Twilio call, when there is one. */
export const twilioCall = {
  accept: () => incoming?.accept(),
  reject: () => {
    incoming?.reject();
    incoming = null;
  },
  hangup: () => {
    incoming?.disconnect();
    incoming = null;
  },
  /** Mutes or unmutes the microphone on the answered call. */
  mute: (on: boolean) => incoming?.mute(on),
};

type TwilioOutgoingCall = { on(event: string, fn: () => void): void; disconnect(): void; mute(on: boolean): void; sendDigits(d: string): void };
let outgoing: TwilioOutgoingCall | null = null;

/**
 * Places a call from the browser with the Voice SDK: a Device with `token` (outgoing grant)
 * connects with `params` (call_id, number_id, To) to the TwiML app, whose voice webhook dials the
 * callee (docs/calling.md "Twilio"). `onAccept`: the callee's leg is connected.
 */
export async function connectTwilioCall(token: string, params: Record<string, string>, handlers: { onAccept: () => void }): Promise<void> {
  const { Device } = await import('@twilio/voice-sdk');
  const d = new Device(token) as unknown as { connect(o: { params: Record<string, string> }): Promise<TwilioOutgoingCall> };
  const call = await d.connect({ params });
  call.on('accept', handlers.onAccept);
  call.on('disconnect', () => {
    if (outgoing === call) outgoing = null;
  });
  outgoing = call;
}

/** The outgoing Twilio call's controls (no-ops without one). */
export const twilioOutgoing = {
  disconnect: () => outgoing?.disconnect(),
  mute: (on: boolean) => outgoing?.mute(on),
  sendDigits: (d: string) => outgoing?.sendDigits(d),
};
