import { dataNames, leadLimitProblem } from '../../../../shared/audience/leads/lead-limits';

const tags = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`);
const sized = (bytes: number) => ({ v: 'x'.repeat(bytes - 8) }); // {"v":"…"} is 8 bytes around the value

describe('leadLimitProblem: the per-lead limits, on the data a write would leave', () => {
  test('within 100 tags and 32 KB (tags included): no problem', () => {
    expect(leadLimitProblem(dataNames(), { ...sized(20_000), _tags: tags(100) }, undefined)).toBeUndefined();
    expect(leadLimitProblem(dataNames(), sized(32 * 1024), undefined)).toBeUndefined();
  });

  test('more than 100 tags names the field that brought them and the count', () => {
    expect(leadLimitProblem(dataNames('leads[3].data'), { _tags: tags(101) }, { _tags: tags(100) })).toBe('leads[3].data._tags would give the lead more than 100 tags (101)');
    expect(leadLimitProblem({ data: 'tags', tags: 'tags' }, { _tags: tags(150) }, {})).toBe('tags would give the lead more than 100 tags (150)');
  });

  test('more than 32 KB names the field and the size', () => {
    expect(leadLimitProblem(dataNames(), sized(32 * 1024 + 1), {})).toBe("data would make the lead's data larger than 32 KB (32,769 bytes with its tags)");
    expect(leadLimitProblem({ data: 'Request body', tags: 'Request body' }, sized(40_000), sized(30_000))).toMatch(/^Request body would make the lead's data larger than 32 KB/);
  });

  test('a lead stored over a limit before the check may be written, as long as the write does not take it further over', () => {
    expect(leadLimitProblem(dataNames(), { _tags: tags(250) }, { _tags: tags(300) })).toBeUndefined();
    expect(leadLimitProblem(dataNames(), sized(300_000), sized(394_000))).toBeUndefined();
    expect(leadLimitProblem(dataNames(), { _tags: tags(301) }, { _tags: tags(300) })).toBe('data._tags would give the lead more than 100 tags (301)');
    expect(leadLimitProblem(dataNames(), sized(394_001), sized(394_000))).toMatch(/larger than 32 KB \(394,001 bytes/);
  });
});
