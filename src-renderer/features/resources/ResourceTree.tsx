import type { ResourceEntry, ResourceKind } from '../../../shared/resource-types.ts';

interface Folder {
  folders: Map<string, Folder>;
  files: Array<{ leaf: string; entry: ResourceEntry }>;
}

/** Resources by path: a folder per kind, then the folders of the names. */
export function ResourceTree({ entries, open, onOpen }: { entries: ResourceEntry[]; open?: { kind: ResourceKind; name: string }; onOpen: (e: ResourceEntry) => void }) {
  const kinds: ResourceKind[] = ['env', 'template'];
  return (
    <ul className="rs-tree" aria-label="Resources">
      {kinds.map((kind) => {
        const ofKind = entries.filter((e) => e.kind === kind);
        return (
          <li key={kind}>
            <div className="rs-folder">{kind}/</div>
            {ofKind.length === 0 ? (
              <p className="rs-hint muted" style={{ paddingLeft: 14 }}>
                {kind === 'env' ? 'No env files' : 'No templates'}
              </p>
            ) : (
              <FolderView folder={treeOf(ofKind)} open={open} onOpen={onOpen} />
            )}
          </li>
        );
      })}
    </ul>
  );
}

function FolderView({ folder, open, onOpen }: { folder: Folder; open?: { kind: ResourceKind; name: string }; onOpen: (e: ResourceEntry) => void }) {
  return (
    <ul>
      {[...folder.folders].map(([name, sub]) => (
        <li key={`d:${name}`}>
          <div className="rs-folder">{name}/</div>
          <FolderView folder={sub} open={open} onOpen={onOpen} />
        </li>
      ))}
      {folder.files.map(({ leaf, entry }) => (
        <li key={`f:${leaf}`}>
          <button
            type="button"
            className="rs-leaf"
            aria-current={open?.kind === entry.kind && open.name === entry.name}
            aria-label={`${entry.kind}/${entry.name}`}
            onClick={() => onOpen(entry)}
          >
            {leaf}
          </button>
        </li>
      ))}
    </ul>
  );
}

function treeOf(entries: ResourceEntry[]): Folder {
  const root: Folder = { folders: new Map(), files: [] };
  for (const entry of entries) {
    const segments = entry.name.split('/');
    let at = root;
    for (const s of segments.slice(0, -1)) {
      let next = at.folders.get(s);
      if (!next) at.folders.set(s, (next = { folders: new Map(), files: [] }));
      at = next;
    }
    at.files.push({ leaf: segments.at(-1)!, entry });
  }
  return root;
}
