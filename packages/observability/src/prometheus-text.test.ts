import { Histogram, Registry } from 'prom-client';
import { parsePrometheusText } from './prometheus-text.js';

describe('parsePrometheusText', () => {
  it('reads what prom-client writes: histogram buckets (le="+Inf" too), sums and counts, with escaped label values', async () => {
    const registry = new Registry();
    const h = new Histogram({
      name: 'mm_t_seconds',
      help: 'h',
      labelNames: ['account', 'note'],
      buckets: [0.1, 1],
      registers: [registry],
    });
    h.observe({ account: 'CI:MTN', note: 'a "quoted"\\ value\nnext' }, 0.5);
    h.observe({ account: 'CI:MTN', note: 'a "quoted"\\ value\nnext' }, 2);
    const samples = parsePrometheusText(await registry.metrics());
    const labels = { account: 'CI:MTN', note: 'a "quoted"\\ value\nnext' };
    expect(samples).toEqual(
      expect.arrayContaining([
        { name: 'mm_t_seconds_bucket', labels: { le: '0.1', ...labels }, value: 0 },
        { name: 'mm_t_seconds_bucket', labels: { le: '1', ...labels }, value: 1 },
        { name: 'mm_t_seconds_bucket', labels: { le: '+Inf', ...labels }, value: 2 },
        { name: 'mm_t_seconds_sum', labels, value: 2.5 },
        { name: 'mm_t_seconds_count', labels, value: 2 },
      ]),
    );
  });

  it('skips comments, blank and malformed lines; reads timestamps, infinities and label-less samples; filters by name', () => {
    const text = [
      '# HELP up Whether it is up.',
      '# TYPE up gauge',
      '',
      'up 1 1700000000000',
      'not a sample line',
      'neg -Inf',
      'big{a="1"} +Inf',
      'bad{a="1"} abc',
    ].join('\n');
    expect(parsePrometheusText(text)).toEqual([
      { name: 'up', labels: {}, value: 1 },
      { name: 'neg', labels: {}, value: -Infinity },
      { name: 'big', labels: { a: '1' }, value: Infinity },
    ]);
    expect(parsePrometheusText(text, (n) => n === 'big')).toEqual([
      { name: 'big', labels: { a: '1' }, value: Infinity },
    ]);
  });
});
