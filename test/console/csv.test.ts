import { describe, expect, it } from 'vitest';
import { toCsv } from '@/lib/domain/csv';

describe('console CSV downloads', () => {
  it('quotes every field, doubles quotes, keeps newlines inside a field and defuses formulas', () => {
    const csv = toCsv([
      ['id', 'text', 'n', 'none'],
      ['m1', 'say "hi"\nthen go', 3, null],
      ['m2', '=HYPERLINK("http://evil")', -1, '@SUM(A1)'],
    ]);
    expect(csv).toBe(
      '"id","text","n","none"\r\n' +
        '"m1","say ""hi""\nthen go","3",""\r\n' +
        '"m2","\'=HYPERLINK(""http://evil"")","-1","\'@SUM(A1)"\r\n',
    );
  });
});
