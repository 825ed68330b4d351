/**
 * Items grouped by a key (runs by correlation id, by trace id), oldest first. Most groups hold
 * one item, which is stored as it is: no array per item for the GC to mark over a store of
 * 100,000 runs.
 */
export class GroupIndex<T extends object> {
  private readonly groups = new Map<string, T | T[]>();

  add(key: string, item: T): void {
    const group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, item);
    else if (Array.isArray(group)) group.push(item);
    else this.groups.set(key, [group, item]);
  }

  /** The group's items, oldest first; empty when there are none. */
  get(key: string): readonly T[] {
    const group = this.groups.get(key);
    return group === undefined ? [] : Array.isArray(group) ? group : [group];
  }

  remove(key: string, item: T): void {
    const group = this.groups.get(key);
    if (group === item) this.groups.delete(key);
    else if (Array.isArray(group)) {
      const rest = group.filter((x) => x !== item);
      if (rest.length === 0) this.groups.delete(key);
      else this.groups.set(key, rest.length === 1 ? rest[0] : rest);
    }
  }

  clear(): void {
    this.groups.clear();
  }
}
