/**
 * The parts of the carrier port that are Twilio's webhook dialect: TwiML rendering and
 * `X-Twilio-Signature` checks with the account's auth token. The Twilio adapter and the sandbox
 * (which speaks the same dialect) both extend this, so the dialect lives in one place.
 */
import type { Config } from '../../platform/config.js';
import type { CallFlowStep, RenderedResponse } from '../carrier.port.js';
import { validateSignature } from './signature.js';
import { renderMessagingTwiml, renderVoiceTwiml } from './twiml.js';

export abstract class TwilioDialect {
  constructor(protected readonly config: Config) {}

  /** Call-flow steps as TwiML (`text/xml`). */
  renderVoice(steps: CallFlowStep[]): RenderedResponse {
    return renderVoiceTwiml(steps);
  }

  /** A messaging webhook answer, optionally replying with `reply`. */
  renderMessaging(reply?: string): RenderedResponse {
    return renderMessagingTwiml(reply);
  }

  /** Checks `X-Twilio-Signature` over `url` (PUBLIC_URL + path + query) and the form params. */
  verifyWebhook(url: string, params: Record<string, string>, signature: string | undefined): boolean {
    return validateSignature(this.config.twilioAuthToken, url, params, signature);
  }
}
