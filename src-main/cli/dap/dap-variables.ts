import type { DebugProtocol } from '@vscode/debugprotocol';
import { messagePathText } from '../../runtime/index.ts';

/** A value a client may expand: where it is in a paused run's message (editable), or an evaluation's result (not). */
interface Handle {
  thread: number;
  /** `['body', 'items', 0]`; undefined for a result of evaluate. */
  path: Array<string | number> | undefined;
  value: unknown;
}

/**
 * Variable references of the paused runs (DAP `variablesReference`): valid until a run goes on,
 * as the protocol says, so they are dropped on every continue or step.
 */
export class VariableHandles {
  private readonly handles = new Map<number, Handle>();
  private next = 1;

  /** A reference for a value with children; 0 (nothing to expand) for a scalar or an empty container. */
  refOf(thread: number, path: Array<string | number> | undefined, value: unknown): number {
    if (!hasChildren(value)) return 0;
    const ref = this.next++;
    this.handles.set(ref, { thread, path, value });
    return ref;
  }

  get(ref: number): Handle | undefined {
    return this.handles.get(ref);
  }

  /** A run went on: its references no longer mean anything. */
  forget(thread: number): void {
    for (const [ref, h] of this.handles) if (h.thread === thread) this.handles.delete(ref);
  }

  /**
   * A paused run's message was edited: its references stay valid (the run is still paused, as the
   * protocol promises) and now show the values at their paths; results of evaluate keep theirs.
   */
  refresh(thread: number, valueAt: (path: ReadonlyArray<string | number>) => unknown): void {
    for (const h of this.handles.values()) if (h.thread === thread && h.path) h.value = valueAt(h.path);
  }

  /** The children of a reference, each with a CEL `evaluateName` when it lies in the message. */
  children(ref: number): DebugProtocol.Variable[] {
    const h = this.handles.get(ref);
    if (!h || !hasChildren(h.value)) return [];
    const entries: Array<[string | number, unknown]> = Array.isArray(h.value) ? h.value.map((v, i) => [i, v]) : Object.entries(h.value as Record<string, unknown>);
    return entries.map(([key, value]) => {
      const path = h.path ? [...h.path, key] : undefined;
      const variable: DebugProtocol.Variable = {
        name: typeof key === 'number' ? `[${key}]` : key,
        value: preview(value),
        type: typeName(value),
        variablesReference: this.refOf(h.thread, path, value),
      };
      if (path) variable.evaluateName = messagePathText(path);
      return variable;
    });
  }
}

/** One line for a value, as a debugger shows it beside its name. */
export function preview(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.length}] ${clip(JSON.stringify(value), 60)}`;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : clip(JSON.stringify(value), 80);
  return value === undefined ? 'null' : JSON.stringify(value);
}

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/**
 * The path a CEL field selection names, for `setExpression`: `body.customer`,
 * `vars.items[0].qty`, `body["odd key"]`. Undefined for anything else (a call, arithmetic).
 */
export function pathOfExpression(expression: string): Array<string | number> | undefined {
  const text = expression.trim();
  const head = /^(body|vars)/.exec(text);
  if (!head) return undefined;
  const path: Array<string | number> = [head[1]];
  let rest = text.slice(head[1].length);
  while (rest.length > 0) {
    const m = /^\.([A-Za-z_]\w*)|^\[(\d+)\]|^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) path.push(m[1]);
    else if (m[2] !== undefined) path.push(Number(m[2]));
    else path.push(JSON.parse(m[3]) as string);
    rest = rest.slice(m[0].length);
  }
  return path;
}

function hasChildren(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
