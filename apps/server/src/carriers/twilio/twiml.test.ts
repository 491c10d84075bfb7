/**
 * TwiML rendering (twiml.ts): the documents Twilio receives, and the memo of repeated decisions
 * returning the same document as a fresh render.
 */
import { describe, expect, it } from 'vitest';
import { renderDialQueueTwiml, renderEnqueueTwiml, renderVoiceTwiml } from './twiml.js';

describe('renderVoiceTwiml', () => {
  it('renders a menu and a dial, and the same steps again as the same document', () => {
    const menu = [
      {
        kind: 'gather' as const,
        numDigits: 1,
        timeoutS: 5,
        action: 'https://x.test/webhooks/twilio/voice/gather?attempt=1',
        prompt: [{ kind: 'say' as const, text: 'Press 1 for sales & 2 for <support>.' }],
      },
    ];
    const first = renderVoiceTwiml(menu);
    expect(first.contentType).toBe('text/xml');
    expect(first.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Gather numDigits="1" timeout="5" action="https://x.test/webhooks/twilio/voice/gather?attempt=1" method="POST" actionOnEmptyResult="true"><Say>Press 1 for sales &amp; 2 for &lt;support&gt;.</Say></Gather></Response>',
    );
    expect(renderVoiceTwiml(JSON.parse(JSON.stringify(menu)))).toEqual(first);
    const other = renderVoiceTwiml([{ ...menu[0]!, numDigits: 2 }]);
    expect(other.body).toContain('numDigits="2"');
    expect(renderVoiceTwiml([{ kind: 'reject', reason: 'busy' }]).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>',
    );
  });

  it('answers correctly after more distinct documents than it remembers', () => {
    for (let i = 0; i < 5_100; i++) {
      const r = renderVoiceTwiml([{ kind: 'say', text: `Caller ${i}` }]);
      expect(r.body).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Say>Caller ${i}</Say></Response>`);
    }
    expect(renderVoiceTwiml([{ kind: 'say', text: 'Caller 7' }]).body).toContain('<Say>Caller 7</Say>');
  });
});

describe('hold TwiML', () => {
  it('enqueues the held party (with or without our wait TwiML) and dials its queue to resume', () => {
    expect(renderEnqueueTwiml('hold-CA1', { action: 'https://x.test/left' }).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Enqueue action="https://x.test/left" method="POST">hold-CA1</Enqueue></Response>',
    );
    expect(renderEnqueueTwiml('hold-CA1', { action: 'https://x.test/left', waitUrl: 'https://x.test/wait?a=1&b=2' }).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Enqueue action="https://x.test/left" method="POST" waitUrl="https://x.test/wait?a=1&amp;b=2" waitUrlMethod="POST">hold-CA1</Enqueue></Response>',
    );
    expect(renderDialQueueTwiml('hold-CA1', { action: 'https://x.test/dial', timeoutS: 5 }).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="https://x.test/dial" method="POST" timeout="5"><Queue>hold-CA1</Queue></Dial></Response>',
    );
  });
});
