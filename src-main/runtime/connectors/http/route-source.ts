import { implementSource, type Settings, type SourceContext } from '../../core/component.ts';
import { HttpConnector } from './http.ts';
import { HttpRoute } from './http-route.ts';
import { DEFAULT_HEARTBEAT_MS, routeSourceDef } from './route-source.def.ts';
import { joinBasePath, parseRoutePattern } from '../../../../shared/route-pattern.ts';
import { hasLineBreak } from './sse-frame.ts';
import { failureStatus } from './response-writer.ts';
import type { FlowResult } from '../../core/engine/chain.ts';
import type { Message } from '../../core/message.ts';
import { runFailureLogFor, type FailedRunSource, type RunFailureLog } from '../../core/run-failure-log.ts';

type RouteSettings = Settings<typeof routeSourceDef.settings>;

/**
 * The `http` source: registers the flow's route on its connector when built, so `validate`
 * already reports two flows claiming one method and path; serves it between start and stop.
 */
export const routeSource = implementSource(
  routeSourceDef,
  (s, ctx) => {
    const connector = ctx.connector(s.connector);
    if (!(connector instanceof HttpConnector)) throw new Error(`connector "${s.connector}" is not an http connector`);
    const redact = (text: string): string => ctx.host.redact(text);
    const response = connector.rulesFor({
      responseHeaders: (s.responseHeaders ?? []).filter((h) => h.toLowerCase() !== 'content-type'),
      redact,
    });
    // The caller gets the failure; the server's log said nothing of it, so whoever runs the
    // service only learnt of failing runs from their callers. Where the runtime's caller logs
    // failed runs itself (the studio), runs go to the flow untouched.
    const failures = runFailureLogFor(ctx);
    const noted = failures && noting(ctx, failures, { source: 'http', route: `${s.methods?.join(',') ?? '*'} ${s.path}` });
    const route = new HttpRoute({
      flowName: ctx.flowName,
      pattern: parseRoutePattern(joinBasePath(connector.basePath, s.path)),
      methods: s.methods && [...new Set(s.methods)],
      headers: s.headers ?? [],
      correlationIdHeader: s.correlationIdHeader,
      rawBodyVar: s.rawBodyVar,
      rawBody: s.rawBody,
      timeoutMs: s.timeout ?? connector.requestTimeoutMs,
      clock: ctx.host.clock,
      maxBodyBytes: s.maxBodyBytes,
      bodyIdleTimeoutMs: connector.bodyIdleTimeoutMs,
      response,
      sse: s.sse?.enabled
        ? {
            ...response,
            streamVar: s.sse.streamVar,
            finalEvent: s.sse.finalEvent,
            finalEventName: s.sse.finalEventName,
            closeOnComplete: s.sse.closeOnComplete,
            // 0 means the default, not off: a stream without heartbeats dies silently behind proxies.
            heartbeatMs: s.sse.heartbeat || DEFAULT_HEARTBEAT_MS,
            maxDurationMs: s.sse.maxDuration || undefined,
            maxStreams: s.sse.maxStreams,
            writeTimeoutMs: connector.writeTimeoutMs,
            registry: connector.streams,
          }
        : undefined,
      submit: noted?.submit ?? ctx.submit,
      start: noted?.start ?? ctx.start,
      traces: ctx.traces,
      refused: ctx.refused,
      log: ctx.log,
    });
    connector.addRoute(route);
    return {
      async start() {
        route.active = true;
        noted?.started();
      },
      async stop() {
        route.active = false;
        noted?.stopped();
      },
      describe() {
        const base = connector.url();
        return { ...route.describe(), connector: s.connector, url: base === undefined ? undefined : base + route.pattern.text };
      },
    };
  },
  (s: RouteSettings) => {
    const problems: string[] = [];
    try {
      parseRoutePattern(s.path);
    } catch (err) {
      problems.push((err as Error).message);
    }
    if (hasLineBreak(s.sse?.finalEventName)) problems.push('sse.finalEventName must not contain a line break');
    return problems;
  },
);

/**
 * submit and start that report a failed run's result to `failures`, the result unchanged; once
 * the route stops, what the log held back is said when the runs still answering have ended (a
 * process stopping within the minute would otherwise never say it), as the queue source does.
 */
function noting(ctx: Pick<SourceContext, 'submit' | 'start'>, failures: RunFailureLog, where: FailedRunSource['source']) {
  let running = 0;
  let stopped = false;
  const noted = (result: FlowResult): FlowResult => {
    if (result.outcome === 'failed') failures.report(result.error, { source: where, next: 'answered', status: failureStatus(result) });
    return result;
  };
  const ended = (result: FlowResult): FlowResult => {
    noted(result);
    if (--running === 0 && stopped) failures.flush();
    return result;
  };
  const later = (run: Promise<FlowResult>): Promise<FlowResult> => {
    running++;
    return run.then(ended);
  };
  return {
    submit: (msg: Message) => later(ctx.submit(msg)),
    start: (msg: Message) => {
      const started = ctx.start(msg);
      return started instanceof Promise ? later(started) : noted(started);
    },
    started(): void {
      stopped = false;
    },
    stopped(): void {
      stopped = true;
      if (running === 0) failures.flush();
    },
  };
}
