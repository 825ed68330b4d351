import { isUtf8 } from 'node:buffer';
import type { FileDiff, TagDiff } from '../../../shared/resource-types.ts';
import type { IntegrationFiles, Management } from '../../platform/index.ts';
import { diffLines } from './line-diff.ts';

/** Files over this size are compared as wholes only. */
const MAX_DIFF_BYTES = 512 * 1024;

type Area = FileDiff['area'];

/**
 * A tag's frozen copy against the working copy: every definition and resource file, added,
 * removed, changed or unchanged, with line hunks for the text that changed.
 */
export async function diffTag(management: Management, integration: string, tag: string, working: IntegrationFiles): Promise<TagDiff> {
  const snapshot = await management.snapshots.getTag(integration, tag);
  const frozen = new Map<string, { area: Area; content: Buffer }>();
  for (const d of await management.snapshots.definitions(snapshot.id)) frozen.set(d.file, { area: 'definition', content: d.content });
  for (const r of snapshot.resources) {
    frozen.set(`${r.kind}/${r.name}`, { area: r.kind, content: (await management.snapshots.resourceContent(snapshot.id, r.kind, r.name)) ?? Buffer.alloc(0) });
  }
  const current = new Map<string, { area: Area; content: Buffer }>();
  for (const d of working.definitions) current.set(d.file, { area: 'definition', content: d.content });
  for (const r of working.resources) current.set(`${r.kind}/${r.name}`, { area: r.kind, content: r.content });

  const paths = [...new Set([...frozen.keys(), ...current.keys()])].sort(byArea(frozen, current));
  const files = paths.map((path): FileDiff => {
    const before = frozen.get(path);
    const after = current.get(path);
    const area = (before ?? after)!.area;
    if (!before) return compare(path, area, 'added', Buffer.alloc(0), after!.content);
    if (!after) return compare(path, area, 'removed', before.content, Buffer.alloc(0));
    if (before.content.equals(after.content)) return { path, area, status: 'unchanged', hunks: [] };
    return compare(path, area, 'changed', before.content, after.content);
  });
  return { integration, tag, snapshotId: snapshot.id, files };
}

function compare(path: string, area: Area, status: FileDiff['status'], before: Buffer, after: Buffer): FileDiff {
  if (!isUtf8(before) || !isUtf8(after)) return { path, area, status, hunks: [], note: 'binary content: not compared line by line' };
  if (before.length > MAX_DIFF_BYTES || after.length > MAX_DIFF_BYTES) {
    return { path, area, status, hunks: [], note: `over ${MAX_DIFF_BYTES / 1024} KiB: not compared line by line` };
  }
  return { path, area, status, hunks: diffLines(before.toString('utf8'), after.toString('utf8')) };
}

/** Definitions first, then env, then templates; by path within each. */
function byArea(a: Map<string, { area: Area }>, b: Map<string, { area: Area }>) {
  const rank = (p: string): number => ({ definition: 0, env: 1, template: 2 })[(a.get(p) ?? b.get(p))!.area];
  return (x: string, y: string): number => rank(x) - rank(y) || x.localeCompare(y);
}
