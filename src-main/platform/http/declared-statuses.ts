import type { ServerResponse } from 'node:http';
import type { Route } from './router.ts';

/**
 * Holds a route to the statuses its declaration in shared/platform-api/ lists (`statuses`): an
 * answer with any other status is reported through `report` and goes out as 500 instead, so
 * the test that provoked it fails. The platform server turns this on in test runs
 * (PlatformServerOptions.checkDeclaredStatuses); the OpenAPI document then lists every status
 * a route was seen to answer.
 */
export function guardDeclaredStatuses(res: ServerResponse, route: Route, report: (err: Error) => void): void {
  const statuses = route.contract?.statuses;
  if (!statuses) return;
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (statuses.has(status)) return writeHead(status, ...rest);
    report(new UndeclaredStatusError(`${route.method} ${route.path} answered ${status}, which its declaration (${route.contract!.operationId} in shared/platform-api/) does not list: declare it there, or answer a declared status`));
    return writeHead(500, ...rest);
  }) as ServerResponse['writeHead'];
}

export class UndeclaredStatusError extends Error {
  override name = 'UndeclaredStatusError';
}
