import type { Document } from 'mongodb';
import { bsonOf, isPlainObject, kindOf } from '../block-target.ts';

/**
 * An `update` value as the driver takes it: an operator object, or a pipeline (list of stages).
 * A plain object would make the driver refuse it anyway, but later and in its own words; here the
 * message names the fix (spec 3 §2.5).
 */
export function updateDocument(value: unknown, refuse: (reason: string) => Error): Document | Document[] {
  if (Array.isArray(value)) {
    value.forEach((stage, i) => {
      if (!isPlainObject(stage)) throw refuse(`update[${i}] must be a pipeline stage object such as {"$set": {…}}, got ${kindOf(stage)}`);
    });
    return value.map((stage, i) => bsonOf(stage, `update[${i}]`, refuse) as Document);
  }
  if (!isPlainObject(value)) throw refuse(`update must be an operator object such as {"$set": {…}} or a pipeline list, got ${kindOf(value)}`);
  const keys = Object.keys(value);
  const plain = keys.filter((k) => !k.startsWith('$'));
  if (keys.length === 0) throw refuse('update is an empty object; write the change with an operator, e.g. {"$set": {"status": "done"}}');
  if (plain.length === keys.length) {
    throw refuse(
      `update is a plain object without update operators (fields ${plain.join(', ')}); to change those fields wrap them in $set, e.g. {"$set": ${JSON.stringify(Object.fromEntries(plain.map((k) => [k, '…'])))}}, or use replacement: to replace the whole document`,
    );
  }
  if (plain.length > 0) {
    throw refuse(`update mixes operators (${keys.filter((k) => k.startsWith('$')).join(', ')}) with plain fields (${plain.join(', ')}); put the fields inside an operator such as $set`);
  }
  return bsonOf(value, 'update', refuse) as Document;
}

/** A replacement is a whole document; operators in it mean `update` was meant. */
export function replacementDocument(value: unknown, refuse: (reason: string) => Error): Document {
  if (!isPlainObject(value)) throw refuse(`replacement must be an object (the whole new document), got ${kindOf(value)}`);
  const operators = Object.keys(value).filter((k) => k.startsWith('$'));
  if (operators.length > 0) throw refuse(`replacement holds update operators (${operators.join(', ')}); use update: for an operator update`);
  return bsonOf(value, 'replacement', refuse) as Document;
}
