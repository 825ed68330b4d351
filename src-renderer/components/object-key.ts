const keys = new WeakMap<object, number>();
let next = 0;

/**
 * A stable React key for a row object: live lists shift under the viewport every frame, so an
 * index key would remount every visible row; the object itself stays the same.
 */
export function objectKey(row: object): number {
  let key = keys.get(row);
  if (key === undefined) keys.set(row, (key = ++next));
  return key;
}
