import { Int32 } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { preparePipeline } from './pipeline.ts';

const refuse = (reason: string) => new Error(reason);

describe('an aggregation pipeline as sent to the driver', () => {
  it('rewrites a top-level $sort list into one ordered document', () => {
    const [stage] = preparePipeline([{ $sort: [{ total: -1 }, { _id: 1 }] }], undefined, refuse);
    expect(stage.$sort).toBeInstanceOf(Map);
    expect([...(stage.$sort as Map<string, unknown>)]).toEqual([
      ['total', new Int32(-1)],
      ['_id', new Int32(1)],
    ]);
  });

  it('passes a $sort nested in $facet or in a $lookup sub-pipeline through untouched', () => {
    const facet = { $facet: { byTotal: [{ $sort: [{ total: -1 }] }], byBoth: [{ $sort: { a: 1, b: 1 } }] } };
    const lookup = { $lookup: { from: 'items', pipeline: [{ $sort: { a: 1, b: -1 } }], as: 'items' } };
    const stages = preparePipeline([facet, lookup], undefined, refuse);
    expect(stages).toEqual([
      { $facet: { byTotal: [{ $sort: [{ total: new Int32(-1) }] }], byBoth: [{ $sort: { a: new Int32(1), b: new Int32(1) } }] } },
      { $lookup: { from: 'items', pipeline: [{ $sort: { a: new Int32(1), b: new Int32(-1) } }], as: 'items' } },
    ]);
  });

  it('appends limit as a final $limit after the pipeline’s own stages', () => {
    expect(preparePipeline([{ $match: {} }, { $limit: 3 }], 10, refuse)).toEqual([{ $match: {} }, { $limit: new Int32(3) }, { $limit: 10 }]);
  });

  it('leaves $out alone when no limit is set', () => {
    expect(preparePipeline([{ $out: 'copy' }], undefined, refuse)).toEqual([{ $out: 'copy' }]);
  });
});
