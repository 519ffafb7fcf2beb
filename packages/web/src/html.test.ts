import { escapeHtml, html, raw, SafeHtml } from './html.js';

describe('html tagged template', () => {
  it('escapes every interpolated value by default', () => {
    const name = `<script>alert("x")</script> & 'quotes' \`tick\``;
    expect(html`<td title="${name}">${name}</td>`.value).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;tick&#96;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;tick&#96;</td>',
    );
  });

  it('keeps nested fragments and raw() as they are, and escapes strings inside arrays', () => {
    const rows = ['a<b', 'c&d'].map((r) => html`<li>${r}</li>`);
    expect(html`<ul>${rows}</ul>`.value).toBe('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    expect(html`${['<i>', raw('<b>ok</b>')]}`.value).toBe('&lt;i&gt;<b>ok</b>');
    expect(html`<p>${raw('<em>trusted</em>')}</p>`.value).toBe('<p><em>trusted</em></p>');
  });

  it('renders null, undefined and false as nothing, numbers, bigints, true and dates as text', () => {
    expect(html`${null}${undefined}${false}|${0}|${12n}|${true}|${new Date('2026-01-02T03:04:05Z')}`.value).toBe(
      '|0|12|true|2026-01-02T03:04:05.000Z',
    );
  });

  it('returns SafeHtml, whose string form is the markup', () => {
    const fragment = html`<b>${'x'}</b>`;
    expect(fragment).toBeInstanceOf(SafeHtml);
    expect(`${fragment}`).toBe('<b>x</b>');
    expect(escapeHtml('"&"')).toBe('&quot;&amp;&quot;');
  });
});
