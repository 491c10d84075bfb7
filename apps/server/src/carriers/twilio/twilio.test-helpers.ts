/**
 * A local stand-in for the parts of Twilio's REST API the browser-call controls use (tests only):
 * given to `TwilioCarrier` as the `twilio` package's `httpClient`, it keeps calls (status, parent)
 * and queues in memory, answers as Twilio does (JSON bodies, list pages, 404 for an unknown SID,
 * 21220 for redirecting a call not in progress) and records every request.
 *
 * Modelled: `GET Calls.json` (ParentCallSid, Status filters), `POST Calls/{sid}.json` (Status
 * completed; Twiml: `<Enqueue>` puts the call into its queue, `<Dial><Queue>` dequeues the first
 * member), `GET Queues.json`, `GET Queues/{sid}/Members.json`, `DELETE Queues/{sid}.json`.
 */
import type twilio from 'twilio';

export type StandInRequest = { method: string; path: string; params: Record<string, string>; form: Record<string, string> };

type StandInCall = { sid: string; status: string; parent: string | null; twiml: string | null };
type StandInQueue = { sid: string; name: string; members: string[] };

export class TwilioRestStandIn {
  readonly requests: StandInRequest[] = [];
  readonly calls = new Map<string, StandInCall>();
  readonly queues = new Map<string, StandInQueue>();

  /** The `httpClient` for `new TwilioCarrier(config, { httpClient })`. */
  readonly httpClient = {
    request: async (opts: { method: string; uri: string; params?: Record<string, unknown>; data?: Record<string, unknown> }) => {
      const path = new URL(opts.uri).pathname.replace(/^\/2010-04-01\/Accounts\/[^/]+/, '');
      const str = (o: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, String(v)]));
      const req = { method: opts.method.toUpperCase(), path, params: str(opts.params), form: str(opts.data) };
      this.requests.push(req);
      const [status, body] = this.answer(req);
      return { statusCode: status, body: body === undefined ? '' : JSON.stringify(body), headers: {} };
    },
  } as unknown as twilio.RequestClient;

  /** Adds a live call (`parent`: the call whose `<Dial>` created it). */
  addCall(sid: string, parent: string | null = null, status = 'in-progress'): void {
    this.calls.set(sid, { sid, status, parent, twiml: null });
  }

  /** The requests other than the ones listed in `from` (the index of a previous length). */
  since(from: number): StandInRequest[] {
    return this.requests.slice(from);
  }

  private callJson(c: StandInCall) {
    return { sid: c.sid, status: c.status, parent_call_sid: c.parent };
  }

  private leaveQueues(sid: string): void {
    for (const q of this.queues.values()) q.members = q.members.filter((m) => m !== sid);
  }

  private answer(req: StandInRequest): [number, unknown] {
    const notFound: [number, unknown] = [404, { code: 20404, message: 'The requested resource was not found', status: 404 }];
    if (req.method === 'GET' && req.path === '/Calls.json') {
      const list = [...this.calls.values()].filter(
        (c) => (!req.params.ParentCallSid || c.parent === req.params.ParentCallSid) && (!req.params.Status || c.status === req.params.Status),
      );
      return [200, { calls: list.map((c) => this.callJson(c)), next_page_uri: null, page: 0, page_size: 50 }];
    }
    let m = /^\/Calls\/([^/]+)\.json$/.exec(req.path);
    if (req.method === 'POST' && m) {
      const call = this.calls.get(m[1]!);
      if (!call) return notFound;
      if (call.status !== 'in-progress') return [400, { code: 21220, message: 'Call is not in-progress. Cannot redirect.', status: 400 }];
      if (req.form.Status === 'completed') {
        call.status = 'completed';
        this.leaveQueues(call.sid);
      } else if (req.form.Twiml) {
        call.twiml = req.form.Twiml;
        this.leaveQueues(call.sid);
        const enqueue = /<Enqueue[^>]*>([^<]+)<\/Enqueue>/.exec(req.form.Twiml);
        if (enqueue) {
          const name = enqueue[1]!;
          let q = [...this.queues.values()].find((x) => x.name === name);
          if (!q) {
            q = { sid: `QU${String(this.queues.size + 1).padStart(32, '0')}`, name, members: [] };
            this.queues.set(q.sid, q);
          }
          q.members.push(call.sid);
        }
        const dialQueue = /<Queue>([^<]+)<\/Queue>/.exec(req.form.Twiml);
        if (dialQueue) {
          const q = [...this.queues.values()].find((x) => x.name === dialQueue[1]);
          q?.members.shift();
        }
      }
      return [200, this.callJson(call)];
    }
    if (req.method === 'GET' && req.path === '/Queues.json') {
      const list = [...this.queues.values()].map((q) => ({ sid: q.sid, friendly_name: q.name, current_size: q.members.length }));
      return [200, { queues: list, next_page_uri: null, page: 0, page_size: 50 }];
    }
    m = /^\/Queues\/([^/]+)\/Members\.json$/.exec(req.path);
    if (req.method === 'GET' && m) {
      const q = this.queues.get(m[1]!);
      if (!q) return notFound;
      return [
        200,
        { queue_members: q.members.map((sid, i) => ({ call_sid: sid, queue_sid: q.sid, position: i + 1 })), next_page_uri: null, page: 0, page_size: 50 },
      ];
    }
    m = /^\/Queues\/([^/]+)\.json$/.exec(req.path);
    if (req.method === 'DELETE' && m) {
      if (!this.queues.delete(m[1]!)) return notFound;
      return [204, undefined];
    }
    return notFound;
  }
}
