import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenTelemetry Collector's OTLP/HTTP trace receiver: it accepts
 * `POST /v1/traces` as protobuf (decoded with the official opentelemetry-proto definitions, as
 * compiled by the OpenTelemetry JS project) or as OTLP JSON, and keeps every span it received.
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message?: string };
  events: Array<{ name: string; attributes: Record<string, string | number | boolean> }>;
  resource: Record<string, string | number | boolean>;
  /** The content type it arrived with. */
  encoding: 'protobuf' | 'json';
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Request headers of every export, to check OTEL_EXPORTER_OTLP_HEADERS. */
  requests: Array<Record<string, string | string[] | undefined>>;
  close(): Promise<void>;
}

interface Decoder {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}

// The generated protobufjs module of the official .proto files (CommonJS).
const require = createRequire(import.meta.url);
const proto = require('otlp-proto-decode/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Decoder } } } } };
};
const ExportTraceServiceRequest = proto.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      requests.push(req.headers);
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      try {
        if (type.startsWith('application/x-protobuf')) {
          const decoded = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: String, bytes: Buffer, enums: Number });
          spans.push(...flatten(decoded as OtlpRequest, 'protobuf'));
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else if (type.startsWith('application/json')) {
          spans.push(...flatten(JSON.parse(body.toString('utf8')) as OtlpRequest, 'json'));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else {
          res.writeHead(415).end();
        }
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans: Array<{
      spans: Array<{
        traceId: Buffer | string;
        spanId: Buffer | string;
        parentSpanId?: Buffer | string;
        name: string;
        kind: number;
        attributes?: OtlpKeyValue[];
        status?: { code?: number; message?: string };
        events?: Array<{ name: string; attributes?: OtlpKeyValue[] }>;
      }>;
    }>;
  }>;
}

function flatten(req: OtlpRequest, encoding: ReceivedSpan['encoding']): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? []) {
    const resource = attrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: s.parentSpanId === undefined ? '' : hex(s.parentSpanId),
          name: s.name,
          kind: s.kind ?? 0,
          attributes: attrs(s.attributes),
          status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
          events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attrs(e.attributes) })),
          resource,
          encoding,
        });
      }
    }
  }
  return out;
}

/** Protobuf carries ids as bytes; OTLP JSON as hex strings. */
function hex(id: Buffer | string): string {
  return typeof id === 'string' ? id.toLowerCase() : Buffer.from(id).toString('hex');
}

function attrs(list: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}
