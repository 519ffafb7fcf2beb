import { runInNewContext } from 'node:vm';
import { renderPage, type PageView } from './render.js';

/** Runs the page's inline script against a minimal stand-in DOM: no browser here (issue 5 item 3 adds one). */
function boot(view: PageView, statusReply: unknown) {
  const html = renderPage(view, 'en', 'n');
  const script = /<script nonce="n">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const data = /<script type="application\/json" id="d">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const remaining = /data-remaining="(\d+)"/.exec(html)?.[1];
  const el = (id: string) => ({
    id,
    textContent: id === 'd' ? data : '',
    className: '',
    hidden: false,
    href: '',
    attrs: {} as Record<string, string>,
    getAttribute: () => remaining ?? null,
    setAttribute(k: string, v: string) {
      this.attrs[k] = v;
    },
  });
  const nodes = new Map(
    ['status', 'st-t', 'st-d', 'instr', 'back', 'return', 'd', ...(remaining ? ['cd', 'cd-v'] : [])].map((id) => [
      id,
      el(id),
    ]),
  );
  nodes.get('back')!.hidden = !/<p id="back">/.test(html);
  const timers: { fn: () => void; ms: number }[] = [];
  const fetched: string[] = [];
  const replaced: string[] = [];
  const reloads: number[] = [];
  runInNewContext(script, {
    document: { getElementById: (id: string) => nodes.get(id) ?? null },
    location: { pathname: '/pay/abc/', replace: (u: string) => replaced.push(u), reload: () => reloads.push(1) },
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    fetch: (u: string) => {
      fetched.push(u);
      return Promise.resolve({ ok: true, json: () => Promise.resolve(statusReply) });
    },
    JSON,
    Date,
    Math,
    Number,
  });
  const runTimer = async (ms: number) => {
    const i = timers.findIndex((t) => t.ms === ms);
    expect(i).toBeGreaterThanOrEqual(0);
    timers.splice(i, 1)[0]!.fn();
    for (let k = 0; k < 10; k++) await Promise.resolve();
  };
  return { nodes, timers, fetched, replaced, reloads, runTimer };
}

const pending: PageView = {
  merchantName: 'Shop',
  amountText: '5 000 F CFA',
  maskedMsisdn: '+22507******01',
  motif: null,
  status: 'PENDING',
  failureCode: null,
  remainingS: 65,
  redirectUrl: null,
};

describe('the inline script', () => {
  it('counts down, polls /status every 3 s, shows the failure in words and leaves for the return URL after 3 s', async () => {
    const target = 'https://shop.example/r?transaction_id=abc&status=FAILED';
    const { nodes, timers, fetched, replaced, runTimer } = boot(pending, {
      status: 'FAILED',
      failure_code: 'INVALID_SECRET_CODE',
      redirect_url: target,
    });
    expect(nodes.get('cd-v')!.textContent).toMatch(/^01:0[45]$/);
    expect(nodes.get('st-t')!.textContent).toBe('Waiting for your confirmation');
    expect(timers.map((t) => t.ms).sort()).toEqual([1000, 3000]);
    await runTimer(3000);
    expect(fetched).toEqual(['/pay/abc/status']);
    expect(nodes.get('status')!.className).toBe('st st-failed');
    expect(nodes.get('status')!.attrs['data-status']).toBe('FAILED');
    expect(nodes.get('st-t')!.textContent).toBe('Payment failed');
    expect(nodes.get('st-d')!.textContent).toBe('The payment did not go through. Wrong secret code.');
    expect(nodes.get('instr')!.hidden).toBe(true);
    expect(nodes.get('cd')!.hidden).toBe(true);
    expect(nodes.get('back')!.hidden).toBe(false);
    expect(nodes.get('return')!.href).toBe(target);
    expect(replaced).toEqual([]);
    await runTimer(3000);
    expect(replaced).toEqual([target]);
    // polling stopped
    expect(timers.filter((t) => t.ms === 3000)).toHaveLength(0);
  });

  it('keeps polling while still in flight', async () => {
    const { fetched, timers, runTimer } = boot({ ...pending, remainingS: null }, { status: 'PENDING' });
    await runTimer(3000);
    expect(fetched).toHaveLength(1);
    expect(timers.filter((t) => t.ms === 3000)).toHaveLength(1);
  });

  it('redirects 3 s after loading in a terminal state with a return URL', async () => {
    const target = 'https://shop.example/r?transaction_id=abc&status=SUCCESS';
    const { replaced, fetched, runTimer } = boot({ ...pending, status: 'SUCCESS', redirectUrl: target }, {});
    await runTimer(3000);
    expect(replaced).toEqual([target]);
    expect(fetched).toEqual([]);
  });

  it('reloads once when /status names a customer action the page does not show (the operator acknowledged meanwhile)', async () => {
    const { reloads, timers, runTimer } = boot(
      { ...pending, status: 'INITIATED', remainingS: null },
      { status: 'PENDING', action: 'REDIRECT' },
    );
    await runTimer(3000);
    expect(reloads).toHaveLength(1);
    // polling stopped: the reloaded page takes over
    expect(timers.filter((t) => t.ms === 3000)).toHaveLength(0);
  });

  it('does not reload a page already showing that action', async () => {
    const action = { type: 'OTP', ussd: '#144*82#', formAction: '/pay/abc/code', notice: null } as const;
    const { reloads, fetched, runTimer } = boot(
      { ...pending, remainingS: null, action },
      { status: 'PENDING', action: 'OTP' },
    );
    await runTimer(3000);
    expect(fetched).toHaveLength(1);
    expect(reloads).toHaveLength(0);
  });
});
