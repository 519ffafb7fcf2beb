import { DomainError } from '@mm/domain';
import { EXPORT_MAX_DAYS, parseExportQuery, utcDay } from './export-query.js';

function issues(query: unknown) {
  try {
    parseExportQuery(query);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('VALIDATION_ERROR');
    return (err as DomainError).details;
  }
  throw new Error('expected a validation error');
}

describe('utcDay', () => {
  it('accepts real calendar dates only', () => {
    expect(utcDay('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-1-01',
      '20240101',
      '2024-01-01T00:00:00Z',
      ' 2024-01-01',
      '',
    ]) {
      expect(utcDay(bad)).toBeNull();
    }
  });
});

describe('parseExportQuery', () => {
  it('turns inclusive dates into a half-open UTC interval, json by default', () => {
    expect(parseExportQuery({ date_from: '2026-01-01', date_to: '2026-01-31' })).toEqual({
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      format: 'json',
      from: new Date('2026-01-01T00:00:00.000Z'),
      until: new Date('2026-02-01T00:00:00.000Z'),
    });
    expect(
      parseExportQuery({ date_from: '2026-01-01', date_to: '2026-01-01', country_code: 'SN', format: 'csv' }),
    ).toMatchObject({
      country_code: 'SN',
      format: 'csv',
      until: new Date('2026-01-02T00:00:00.000Z'),
    });
  });

  it(`allows ${EXPORT_MAX_DAYS} days, both ends included, and not one more`, () => {
    expect(parseExportQuery({ date_from: '2024-01-01', date_to: '2024-12-31' }).until).toEqual(
      new Date('2025-01-01T00:00:00.000Z'),
    );
    expect(parseExportQuery({ date_from: '2025-01-01', date_to: '2026-01-01' }).from).toEqual(
      new Date('2025-01-01T00:00:00.000Z'),
    );
    expect(issues({ date_from: '2025-01-01', date_to: '2026-01-02' })).toEqual([
      { field: 'date_to', issue: 'must be at most 366 days from date_from, both included' },
    ]);
  });

  it.each([
    [{ date_to: '2026-01-01' }, 'date_from'],
    [{ date_from: '2026-01-01' }, 'date_to'],
    [{ date_from: '2026-02-30', date_to: '2026-03-01' }, 'date_from'],
    [{ date_from: '2026-01-01', date_to: '01/02/2026' }, 'date_to'],
    [{ date_from: '2026-01-02', date_to: '2026-01-01' }, 'date_to'],
    [{ date_from: '2026-01-01', date_to: '2026-01-02', country_code: 'ci' }, 'country_code'],
    [{ date_from: '2026-01-01', date_to: '2026-01-02', country_code: 'CIV' }, 'country_code'],
    [{ date_from: '2026-01-01', date_to: '2026-01-02', format: 'xml' }, 'format'],
    [{ date_from: '2026-01-01', date_to: '2026-01-02', format: 'CSV' }, 'format'],
    [{ date_from: '2026-01-01', date_to: '2026-01-02', page: '2' }, 'page'],
    [{ date_from: ['2026-01-01', '2026-01-02'], date_to: '2026-01-02' }, 'date_from'],
  ])('refuses %j naming %s', (query, field) => {
    expect(issues(query)?.map((d) => d.field)).toEqual([field]);
  });

  it('reports every problem at once', () => {
    expect(
      issues({ format: 'xml', extra: '1' })
        ?.map((d) => d.field)
        .sort(),
    ).toEqual(['date_from', 'date_to', 'extra', 'format']);
  });
});
