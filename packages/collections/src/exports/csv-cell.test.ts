import { csvCell, csvLine } from './csv-cell.js';

describe('csvCell', () => {
  it('writes plain text and numbers as they are, null and undefined as empty cells', () => {
    expect(csvCell('order-42')).toBe('order-42');
    expect(csvCell(5000)).toBe('5000');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(12n)).toBe('12');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
    expect(csvCell('2026-01-31T23:59:59.999Z')).toBe('2026-01-31T23:59:59.999Z');
  });

  it('quotes cells holding a comma, a quote, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell("it's; fine")).toBe("it's; fine");
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@x', "'@x"],
    ['\tTAB', "'\tTAB"],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
  ])('prefixes a text starting a formula (%j) with a single quote', (input, out) => {
    expect(csvCell(input)).toBe(out);
  });

  it('prefixes first, then quotes: the quote ends up inside the quoted cell', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('\rCR')).toBe(`"'\rCR"`);
    expect(csvCell('-1,5')).toBe(`"'-1,5"`);
  });

  it('leaves formula characters alone when they are not first', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('1-2')).toBe('1-2');
    expect(csvCell(' =1')).toBe(' =1');
  });

  it('does not touch numbers (amounts are numbers, not formulas)', () => {
    expect(csvCell(-5)).toBe('-5');
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends the record with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c', '=x'])).toBe(`a,1,,"b,c",'=x\r\n`);
    expect(csvLine([])).toBe('\r\n');
  });
});
