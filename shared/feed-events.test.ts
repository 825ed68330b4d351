import { describe, expect, it } from 'vitest';
import { addNotRecorded, noneNotRecorded, notRecordedFields } from './feed-events.ts';

describe('what runtimes did not record, as batches carry it', () => {
  it('adds batches up kind by kind, an absent count being none', () => {
    const total = noneNotRecorded();
    addNotRecorded(total, { tracesDropped: 3 });
    addNotRecorded(total, { runsNotTraced: 40, tracesDropped: 2 });
    addNotRecorded(total, {});
    expect(total).toEqual({ tracesDropped: 5, runsNotTraced: 40 });
  });

  it('leaves a kind out of a batch when none went unrecorded', () => {
    expect(notRecordedFields({ tracesDropped: 0, runsNotTraced: 7 })).toEqual({ runsNotTraced: 7 });
    expect(notRecordedFields(noneNotRecorded())).toEqual({});
  });
});
