import { bsonOf, isPlainObject, kindOf } from './block-target.ts';

/**
 * A sort as the driver needs it: keys in order. CEL maps and JSON objects do not promise key
 * order, so several keys come as a list of single-key objects; an object with several keys is
 * refused rather than sorted in an order nobody chose (spec 3 §2.5).
 * Returns undefined when there is nothing to sort by; throws `refuse(reason)` otherwise.
 */
export function sortOrder(value: unknown, setting: string, refuse: (reason: string) => Error): Map<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  const order = new Map<string, unknown>();
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const keys = isPlainObject(item) ? Object.keys(item) : [];
      if (keys.length !== 1) {
        throw refuse(`${setting}[${i}] must be an object with one key, e.g. {"createdAt": -1}; got ${isPlainObject(item) ? `an object with ${keys.length} keys` : kindOf(item)}`);
      }
      order.set(keys[0], bsonOf((item as Record<string, unknown>)[keys[0]], setting, refuse));
    });
  } else if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 1) {
      throw refuse(
        `${setting} is an object with ${keys.length} keys (${keys.join(', ')}) and an object does not keep key order; write a list of single-key objects in the order to sort by, e.g. [${keys.map((k) => `{"${k}": ${JSON.stringify(value[k])}}`).join(', ')}]`,
      );
    }
    for (const k of keys) order.set(k, bsonOf(value[k], setting, refuse));
  } else {
    throw refuse(`${setting} must be an object with one key or a list of them, got ${kindOf(value)}`);
  }
  return order.size === 0 ? undefined : order;
}
