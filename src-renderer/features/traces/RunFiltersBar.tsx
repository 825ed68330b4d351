import type { StoredVersion } from '../../../shared/trace-types.ts';
import { useStudio } from '../../store/studio-store.ts';

/** The filter value of a version. */
export const versionKey = (v: { integration: string; generation: number }): string => `${v.integration}/${v.generation}`;

/** Flow, outcome, version, HTTP status and free text; the list follows as they change. The Live view shares them, without status. */
export function RunFiltersBar({ flows, versions = [], withStatus = true }: { flows: string[]; versions?: StoredVersion[]; withStatus?: boolean }) {
  const filters = useStudio((s) => s.runFilters);
  const set = useStudio((s) => s.setRunFilters);
  return (
    <div className="filters" role="search" aria-label="Filter runs">
      <select aria-label="Flow" value={filters.flow} onChange={(e) => set({ flow: e.target.value })}>
        <option value="">all flows</option>
        {[...new Set([...flows, filters.flow].filter(Boolean))].map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
      <select aria-label="Outcome" value={filters.outcome} onChange={(e) => set({ outcome: e.target.value as typeof filters.outcome })}>
        <option value="">any outcome</option>
        <option value="completed">completed</option>
        <option value="failed">failed</option>
        <option value="dropped">dropped</option>
        {withStatus ? <option value="rejected">rejected</option> : null}
      </select>
      {withStatus ? (
        <select aria-label="Version" value={filters.version} onChange={(e) => set({ version: e.target.value })} title="The definition version that served the runs">
          <option value="">any version</option>
          {filters.version && !versions.some((v) => versionKey(v) === filters.version) ? <option value={filters.version}>{filters.version.replace('/', ' v')}</option> : null}
          {versions.map((v) => (
            <option key={versionKey(v)} value={versionKey(v)}>
              {v.integration} v{v.generation} · {v.digest} ({v.runs.toLocaleString('en-US')})
            </option>
          ))}
        </select>
      ) : null}
      {withStatus ? (
        // The stored runs know where they came from; the Live view's trace events do not.
        <select aria-label="Origin" value={filters.origin} onChange={(e) => set({ origin: e.target.value as typeof filters.origin })}>
          <option value="">any origin</option>
          <option value="live">requests and sources</option>
          <option value="test">flow tests</option>
          <option value="rerun">re-runs</option>
        </select>
      ) : null}
      {withStatus ? <input aria-label="Status" placeholder="status: 200, 4xx" value={filters.status} onChange={(e) => set({ status: e.target.value })} size={10} /> : null}
      <input
        type="search"
        aria-label="Search runs"
        placeholder="search flow, route, error, ids, request body…"
        value={filters.text}
        onChange={(e) => set({ text: e.target.value })}
        className="grow"
      />
    </div>
  );
}
