import { type LogLevel } from '../runtime/index.ts';

/**
 * `flow-studio run --help`: what the command does and every variable the runtime reads, with
 * its default. docs/deploying.md says the same at length; a test keeps the two and the code in step.
 */
export const RUN_USAGE = `usage: flow-studio run <file-or-folder> [--data-dir D]

Starts the flows of every integration under the path and runs until SIGINT/SIGTERM. Start is
all or nothing: http listeners open only once every connector and source has started.

Platform (which services module the flows use):
  RUNTIME_SERVICES_MODULE        api: the platform at FLOW_PLATFORM_API_URL; none: no platform
                                 (KV reads miss, leases and queues fail). Default: api. Without
                                 FLOW_PLATFORM_API_URL (and not none) a platform server starts in
                                 this process on 127.0.0.1 with a fresh token, its data in
                                 --data-dir (default $XDG_DATA_HOME/flow-studio/platform,
                                 XDG_DATA_HOME defaulting to ~/.local/share); one process uses
                                 a data dir at a time, a second run on it stops at once
  FLOW_PLATFORM_API_URL          platform server address, e.g. http://platform:7700. Default: none
  FLOW_PLATFORM_API_TOKEN        bearer token sent to the platform. Default: none
  FLOW_PLATFORM_API_TOKEN_FILE   file holding the token, re-read when it changes (rotation);
                                 the file wins over FLOW_PLATFORM_API_TOKEN. Default: none
  FLOW_PLATFORM_API_HEADERS      headers sent on every platform call: a JSON object
                                 {"X-Api-Key": "k"} or Name=value pairs separated by commas,
                                 values percent-encoded (X-Api-Key=k,X-Team=a%2Cb). Default: none
  FLOW_PLATFORM_API_DISCOVERY_BUDGET  how long discovery retries an unreachable platform before
                                 the start fails: a duration (30s, 2m) or seconds. Default: 30s
  FLOW_PLATFORM_API_TLS_CERT_FILE, FLOW_PLATFORM_API_TLS_KEY_FILE, FLOW_PLATFORM_API_TLS_CA_FILE
                                 client certificate and key (both or neither) and CA for mutual
                                 TLS to the platform. Default: none
  FLOW_PLATFORM_FEATURES         features file (JSON or YAML) for the embedded platform only.
                                 Default: none

Identity and resources:
  FLOW_DEPLOYMENT_ID             deployment this runtime belongs to (replicas share consumer
                                 groups and elect one leader). Default: local
  FLOW_INSTANCE_ID               this replica. Default: <hostname>-<pid>
  FLOW_SNAPSHOT_ID               version tag snapshot: templates and env resources are read from
                                 it, and its env resources fold in, in declared order. Default: none
  FLOW_ENV_RESOURCES             env resources to fold in instead, in order: a JSON array or
                                 comma-separated names. Default: the snapshot's (with
                                 FLOW_SNAPSHOT_ID), else with the embedded platform each
                                 integration's env/** files in path order, else none
  Values of declared variables come from the process environment first, then env resources,
  then declared defaults.

HTTP and logs:
  HTTP_HOST                      host every http connector without host: binds. Default: 0.0.0.0
  HTTP_PORT                      port every http connector without port: binds. Default: 8080
  GCE_METADATA_HOST              metadata server of http-client auth type cloud.
                                 Default: metadata.google.internal
  LOG_LEVEL                      debug, info, warn or error; JSON lines on stdout (warn and
                                 error on stderr). Default: info

Traces to the platform (every run by default; docs/observability.md "Tracing settings"):
  FLOW_TRACE_SAMPLE_RATIO        fraction of runs exported, 0 to 1, chosen by trace id. Default: 1
  FLOW_TRACE_KEEP_FAILED         true: a failed run is exported whole whatever the ratio.
                                 Default: true
  FLOW_TRACE_SATURATED_RATE      runs a second traced while the request thread is saturated
                                 (busy 90% of the last 25 ms); the rest are answered, not
                                 traced, and counted (a failed one keeps its run record).
                                 "all": trace every run whatever the load. Default: 1000
  FLOW_TRACE_SATURATED_BUDGET    percent of the CPU tracing's own work may take while
                                 saturated, over and above the rate. Default: 1

Trace export to an OpenTelemetry backend (docs/observability.md; off until an endpoint is set):
  OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   OTLP/HTTP receiver. Default: none
  OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL   http/protobuf or http/json.
                                 Default: http/protobuf
  OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG   Default: parentbased_always_on, 1
  OTEL_SDK_DISABLED (true), OTEL_TRACES_EXPORTER (none)   turn export off
  and the other standard OTEL_* variables the SDK reads (OTEL_SERVICE_NAME, headers, batching)`;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** `LOG_LEVEL`, refusing a value that is not a level rather than logging everything. */
export function logLevelOf(env: Record<string, string | undefined>): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new Error(`LOG_LEVEL="${env.LOG_LEVEL}" is not a level; use one of ${LOG_LEVELS.join(', ')}`);
}
