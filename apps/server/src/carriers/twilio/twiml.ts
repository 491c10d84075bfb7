/**
 * Renders carrier-neutral call-flow steps as TwiML with the official `twilio` package
 * (`VoiceResponse`, `MessagingResponse`). Used by the Twilio adapter and by the sandbox,
 * which speaks Twilio's dialect.
 *
 * Every `<Gather>` is rendered with `actionOnEmptyResult="true"` so that "no input" reaches the
 * action URL too (the engine decides what to do then: repeat the menu, hang up the whisper leg).
 */
import twilio from 'twilio';
import type { CallFlowStep, RenderedResponse } from '../carrier.port.js';

const { VoiceResponse, MessagingResponse } = twilio.twiml;
const XML = 'text/xml';

/** Rendered documents by their steps (JSON): the same routing decision recurs on every call to a number. */
const rendered = new Map<string, RenderedResponse>();
const MAX_RENDERED = 5_000;

/**
 * Renders `steps` as a TwiML `<Response>` document. The answer for the same steps is remembered
 * (up to 5,000 documents, then forgotten all at once): building one with the `twilio` package's
 * XML builder was a fifth of the voice webhook's memory churn (bench/call-routing;
 * docs/architecture.md "The voice webhook's hot path").
 */
export function renderVoiceTwiml(steps: CallFlowStep[]): RenderedResponse {
  const key = JSON.stringify(steps);
  let out = rendered.get(key);
  if (!out) {
    out = buildVoiceTwiml(steps);
    if (rendered.size >= MAX_RENDERED) rendered.clear();
    rendered.set(key, out);
  }
  return { contentType: out.contentType, body: out.body };
}

function buildVoiceTwiml(steps: CallFlowStep[]): RenderedResponse {
  const response = new VoiceResponse();
  for (const step of steps) {
    switch (step.kind) {
      case 'say':
        response.say(step.voice ? { voice: step.voice as never } : {}, step.text);
        break;
      case 'play':
        response.play(step.url);
        break;
      case 'pause':
        response.pause({ length: step.seconds });
        break;
      case 'gather': {
        const gather = response.gather({ numDigits: step.numDigits, timeout: step.timeoutS, action: step.action, method: 'POST', actionOnEmptyResult: true });
        for (const p of step.prompt) {
          if (p.kind === 'say') gather.say(p.text);
          else gather.play(p.url);
        }
        break;
      }
      case 'dial': {
        const dial = response.dial({
          action: step.action,
          method: 'POST',
          timeout: step.timeoutS,
          ...(step.callerId ? { callerId: step.callerId } : {}),
          ...(step.ringTone ? { ringTone: step.ringTone as never } : {}),
          ...(step.record
            ? {
                record: 'record-from-answer-dual' as const,
                ...(step.recordingStatusCallback
                  ? {
                      recordingStatusCallback: step.recordingStatusCallback,
                      recordingStatusCallbackMethod: 'POST' as const,
                      recordingStatusCallbackEvent: ['completed'],
                    }
                  : {}),
              }
            : {}),
        });
        for (const n of step.numbers) dial.number(n.url ? { url: n.url, method: 'POST' } : {}, n.number);
        for (const c of step.clients ?? []) dial.client(c);
        break;
      }
      case 'record':
        response.record({
          action: step.action,
          method: 'POST',
          maxLength: step.maxLengthS,
          playBeep: step.playBeep,
          ...(step.recordingStatusCallback ? { recordingStatusCallback: step.recordingStatusCallback } : {}),
        });
        break;
      case 'redirect':
        response.redirect({ method: 'POST' }, step.url);
        break;
      case 'hangup':
        response.hangup();
        break;
      case 'reject':
        response.reject({ reason: step.reason });
        break;
    }
  }
  return { contentType: XML, body: response.toString() };
}

/** Renders a messaging webhook answer; with `reply`, one `<Message>` back to the sender. */
export function renderMessagingTwiml(reply?: string): RenderedResponse {
  const response = new MessagingResponse();
  if (reply) response.message(reply);
  return { contentType: XML, body: response.toString() };
}

/**
 * Hold on Twilio (docs/calling.md "Twilio"): the TwiML that puts the party a browser dialed into
 * queue `queue` (`<Enqueue>`, created on demand, name at most 64 characters). While queued it hears
 * the TwiML at `waitUrl` (requested with POST, looping), or Twilio's default classical playlist
 * without one; when it leaves the queue Twilio posts `action` (`QueueResult`: hangup, bridged, ...).
 */
export function renderEnqueueTwiml(queue: string, opts: { waitUrl?: string; action: string }): RenderedResponse {
  const response = new VoiceResponse();
  response.enqueue({ action: opts.action, method: 'POST', ...(opts.waitUrl ? { waitUrl: opts.waitUrl, waitUrlMethod: 'POST' as const } : {}) }, queue);
  return { contentType: XML, body: response.toString() };
}

/**
 * Resuming a held call on Twilio: `<Dial action><Queue>queue</Queue></Dial>` bridges the browser leg
 * with the first (only) party waiting in `queue`; `timeoutS` bounds the wait on an empty queue, and
 * the Dial's result goes to `action` (POST) like any Dial's.
 */
export function renderDialQueueTwiml(queue: string, opts: { action: string; timeoutS: number }): RenderedResponse {
  const response = new VoiceResponse();
  response.dial({ action: opts.action, method: 'POST', timeout: opts.timeoutS }).queue(queue);
  return { contentType: XML, body: response.toString() };
}
