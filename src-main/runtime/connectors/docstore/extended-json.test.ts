import { Binary, BSON, BSONRegExp, Decimal128, Double, EJSON, Int32, Long, MaxKey, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from '../../core/cel.ts';
import { toBsonValue, toExtendedJson } from './extended-json.ts';

const id = new ObjectId('65f1a2b3c4d5e6f708192a3b');
const stored = {
  _id: id,
  at: new Date('2025-03-14T09:26:53.589Z'),
  bigId: Long.fromString('9007199254740993'), // 2^53 + 1: a double cannot hold it
  count: Long.fromNumber(5),
  qty: new Int32(7),
  ratio: new Double(0.25),
  price: Decimal128.fromString('19.99'),
  tags: ['a', new Int32(1)],
  nested: { when: new Date('1969-07-20T20:17:40Z') },
};

/** What the store would hold after a message value went in: BSON bytes, types kept. */
function throughStore(value: unknown): Record<string, unknown> {
  return BSON.deserialize(BSON.serialize(toBsonValue(value) as BSON.Document), { promoteValues: false });
}

describe('documents as extended JSON', () => {
  it('reads relaxed: ordinary numbers plain, identifiers and dates wrapped, big integers and decimals exact', () => {
    expect(toExtendedJson(stored, 'relaxed')).toEqual({
      _id: { $oid: '65f1a2b3c4d5e6f708192a3b' },
      at: { $date: '2025-03-14T09:26:53.589Z' },
      bigId: { $numberLong: '9007199254740993' },
      count: 5,
      qty: 7,
      ratio: 0.25,
      price: { $numberDecimal: '19.99' },
      tags: ['a', 1],
      // Extended JSON v2 writes dates before 1970 as milliseconds even in relaxed mode.
      nested: { when: { $date: { $numberLong: '-14182940000' } } },
    });
  });

  it('reads canonical: every number typed', () => {
    expect(toExtendedJson(stored, 'canonical')).toEqual({
      _id: { $oid: '65f1a2b3c4d5e6f708192a3b' },
      at: { $date: { $numberLong: '1741944413589' } },
      bigId: { $numberLong: '9007199254740993' },
      count: { $numberLong: '5' },
      qty: { $numberInt: '7' },
      ratio: { $numberDouble: '0.25' },
      price: { $numberDecimal: '19.99' },
      tags: ['a', { $numberInt: '1' }],
      nested: { when: { $date: { $numberLong: '-14182940000' } } },
    });
  });

  it('round-trips canonical exactly: what was read goes back with the same types', () => {
    const back = throughStore(JSON.parse(JSON.stringify(toExtendedJson(stored, 'canonical'))));
    expect(back).toEqual(stored);
  });

  it('round-trips relaxed: ObjectId, dates, a Long above 2^53 and Decimal128 keep their value and type', () => {
    const back = throughStore(JSON.parse(JSON.stringify(toExtendedJson(stored, 'relaxed'))));
    expect(back._id).toEqual(id);
    expect(back.at).toEqual(stored.at);
    expect(back.nested).toEqual(stored.nested);
    expect(back.bigId).toEqual(Long.fromString('9007199254740993'));
    expect(back.price).toEqual(Decimal128.fromString('19.99'));
  });

  it('parses input leniently: relaxed, canonical and legacy wrappers alike', () => {
    const back = throughStore({
      a: { $oid: '65f1a2b3c4d5e6f708192a3b' },
      b: { $date: '2025-03-14T09:26:53Z' },
      c: { $date: { $numberLong: '0' } },
      d: { $numberLong: '42' },
      e: { $numberDecimal: '0.1' },
      f: { $numberInt: '3' },
      g: 1.5,
      h: '2025-03-14T09:26:53Z',
    });
    expect(back).toEqual({
      a: id,
      b: new Date('2025-03-14T09:26:53Z'),
      c: new Date(0),
      d: Long.fromNumber(42),
      e: Decimal128.fromString('0.1'),
      f: new Int32(3),
      g: new Double(1.5),
      h: '2025-03-14T09:26:53Z', // an unwrapped date string stays a string (spec 3 §2.4)
    });
  });

  it('writes a CEL integer above 2^53 as $numberLong, so it lands as a 64-bit integer', () => {
    const cel = createCelEnvironment().compile('{"id": 9007199254740993}');
    const value = cel.evaluate({});
    expect(value).toEqual({ id: { $numberLong: '9007199254740993' } });
    expect(throughStore(value).id).toEqual(Long.fromString('9007199254740993'));
  });

  it('keeps in-memory dates and bytes typed, e.g. a timestamp computed in CEL', () => {
    const back = throughStore({ at: new Date('2025-01-01T00:00:00Z'), raw: new Uint8Array([1, 2, 3]) });
    expect(back.at).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(Buffer.from((back.raw as { buffer: Uint8Array }).buffer)).toEqual(Buffer.from([1, 2, 3]));
  });

  it('writes every other value exactly as bson\'s own EJSON does', () => {
    const doc = {
      ...stored,
      bigId: Long.fromNumber(42),
      zero: new Double(-0),
      nan: new Double(NaN),
      inf: new Double(-Infinity),
      whole: new Double(5),
      tiny: new Double(1e-300),
      epoch: new Date(0),
      far: new Date('9999-12-31T23:59:59.999Z'),
      bytes: new Binary(Buffer.from('hi'), 4),
      ts: new Timestamp({ t: 1, i: 2 }),
      re: new BSONRegExp('^a', 'i'),
      max: new MaxKey(),
      list: [[new Int32(1)], { deep: [new Date(5)] }],
    };
    for (const relaxed of [true, false]) {
      expect(toExtendedJson(doc, relaxed ? 'relaxed' : 'canonical')).toEqual(EJSON.serialize(doc, { relaxed }));
    }
  });

  it('keeps a field named __proto__ as a field', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}');
    expect(Object.keys(toExtendedJson(value, 'relaxed') as object)).toEqual(['__proto__']);
  });
});
