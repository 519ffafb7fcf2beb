import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { CALLBACK_MAX_SOCKETS, CallbackSender } from './callback-sender.js';
import { TimerSet } from '@mm/fake-operator';
import type { CallbackBody } from './wire.js';

const body = (reference: string): CallbackBody => ({
  partner_reference: reference,
  session_id: 's-1',
  provider_tx_id: 'p-1',
  state: 'OK',
  txn_status: '200',
  failure_reason: null,
});

describe('callback sender connections', () => {
  let timers: TimerSet;
  let sender: CallbackSender;
  let r: Receiver | undefined;
  beforeEach(() => {
    timers = new TimerSet();
    sender = new CallbackSender({ secret: 'sec', retryDelaysMs: [], timers, log: () => undefined });
  });
  afterEach(async () => {
    timers.clear();
    sender.stop();
    await r?.close();
  });

  it('sends one callback after another over one kept-alive connection', async () => {
    r = await startReceiver();
    await sender.send(r.url, body('tx-1'));
    await sender.send(r.url, body('tx-2'));
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.remotePort).toBe(r.requests[0]!.remotePort);
    expect(r.connections).toBe(1);
  });

  it(`opens at most ${CALLBACK_MAX_SOCKETS} connections to the callback host; callbacks beyond wait for one`, async () => {
    let release!: (status: number) => void;
    const held = new Promise<number>((resolve) => {
      release = resolve;
    });
    r = await startReceiver(() => held);
    const receiver = r;
    const sent = Promise.all(
      Array.from({ length: CALLBACK_MAX_SOCKETS + 10 }, (_, i) => sender.send(receiver.url, body(`tx-${i}`))),
    );
    await waitFor(() => receiver.requests.length === CALLBACK_MAX_SOCKETS, {
      what: `${CALLBACK_MAX_SOCKETS} callbacks held`,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(CALLBACK_MAX_SOCKETS);
    release(200);
    await sent;
    expect(receiver.requests).toHaveLength(CALLBACK_MAX_SOCKETS + 10);
    expect(receiver.connections).toBe(CALLBACK_MAX_SOCKETS);
  });
});
