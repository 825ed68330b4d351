import type { RouteInfo } from '../../../shared/studio-api.ts';

/** The routes a running integration serves, with the URL to call each at. */
export function RouteList({ routes }: { routes: RouteInfo[] }) {
  return (
    <ul className="routes" aria-label="Routes">
      {routes.map((r) => (
        <li key={`${r.flow} ${r.url}`}>
          <span className="method">{r.methods.length > 0 ? r.methods.join(' ') : 'ANY'}</span> <code className="route-url">{r.url}</code>
          {r.flow ? <span className="muted"> → {r.flow}</span> : null}
        </li>
      ))}
    </ul>
  );
}
