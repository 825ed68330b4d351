/**
 * OpenTelemetry export is configured only through the standard `OTEL_*` variables
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/), read here
 * once so that nothing of the SDK is loaded when no endpoint is set.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

export interface OtelConfig {
  protocol: OtlpProtocol;
  sampler: SamplerName;
  /** The ratio of `traceidratio` samplers, 0 to 1. */
  ratio: number;
  /** The batch span processor's settings from `OTEL_BSP_*` (the SDK reads none of them itself). */
  batch: { scheduledDelayMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number; exportTimeoutMillis?: number };
  /** Problems with the variables, logged once: a typo must not silently turn tracing off. */
  warnings: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** The export settings, or undefined when nothing is to be exported (no endpoint, or disabled). */
export function otelConfigFromEnv(env: Env): OtelConfig | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  if (env.OTEL_TRACES_EXPORTER !== undefined && env.OTEL_TRACES_EXPORTER.split(',').map((s) => s.trim()).includes('none')) return undefined;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const warnings: string[] = [];
  const protocolText = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  let protocol: OtlpProtocol = 'http/protobuf';
  if (protocolText === 'http/json') protocol = 'http/json';
  else if (protocolText !== 'http/protobuf') {
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL "${protocolText}" is not supported (use http/protobuf or http/json); exporting with http/protobuf`);
  }
  const samplerText = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  let sampler: SamplerName = 'parentbased_always_on';
  if ((SAMPLERS as readonly string[]).includes(samplerText)) sampler = samplerText as SamplerName;
  else warnings.push(`OTEL_TRACES_SAMPLER "${samplerText}" is not one of ${SAMPLERS.join(', ')}; using parentbased_always_on`);
  let ratio = 1;
  if (sampler.endsWith('traceidratio')) {
    const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const n = arg === undefined || arg === '' ? 1 : Number(arg);
    if (Number.isFinite(n) && n >= 0 && n <= 1) ratio = n;
    else warnings.push(`OTEL_TRACES_SAMPLER_ARG "${arg}" is not a ratio between 0 and 1; using 1`);
  }
  const batch: OtelConfig['batch'] = {};
  const numbers: Array<[keyof OtelConfig['batch'], string]> = [
    ['scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY'],
    ['maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE'],
    ['maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'],
    ['exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT'],
  ];
  for (const [key, name] of numbers) {
    const text = env[name]?.trim();
    if (text === undefined || text === '') continue;
    const n = Number(text);
    if (Number.isInteger(n) && n >= 0) batch[key] = n;
    else warnings.push(`${name} "${text}" is not a whole number; using the default`);
  }
  return { protocol, sampler, ratio, batch, warnings };
}
