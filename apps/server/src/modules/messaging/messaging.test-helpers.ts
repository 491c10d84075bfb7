/**
 * Helpers for the messaging/inbox integration tests: buy a sandbox number through the API and
 * connect a Socket.IO client with the session cookie of an ApiClient.
 */
import { io, type Socket } from 'socket.io-client';
import type { Account } from '../../../test/fixtures.js';
import type { ApiClient, TestServer } from '../../../test/harness.js';

/** Searches the sandbox inventory by area code and buys the first number into the account's company. */
export async function buyTestNumber(account: Account, areaCode: string, index = 0): Promise<{ id: number; number: string }> {
  const search = await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}`);
  if (search.status !== 200) throw new Error(`number search failed: ${search.status} ${JSON.stringify(search.body)}`);
  const candidate = search.body.data[index];
  const bought = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: candidate.provider_id, number: candidate.number });
  if (bought.status !== 201) throw new Error(`number purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`);
  return { id: bought.body.id, number: bought.body.number };
}

/** A Socket.IO client authenticated by the client's session cookie. */
export async function connectSocket(s: TestServer, client: ApiClient): Promise<Socket> {
  const session = client.cookie('switchboard_session');
  const socket = io(s.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: `switchboard_session=${session}` }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (e) => reject(e));
  });
  return socket;
}

/** Emits `subscribe` for `channel` and resolves with the server's ack. */
export function subscribe(socket: Socket, channel: string): Promise<{ ok: boolean; message?: string }> {
  return socket.timeout(5000).emitWithAck('subscribe', channel);
}
