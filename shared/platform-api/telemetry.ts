import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { TooLarge } from './common.ts';

export const TelemetryBatch = component(
  'TelemetryBatch',
  Type.Union([Type.Array(Type.Object({})), Type.Object({ records: Type.Array(Type.Object({})) })], {
    description: 'A JSON array of records, or {records: [...]}. Each record is a JSON object stored and relayed as sent.',
  }),
);

export const TelemetryAccepted = component('TelemetryAccepted', Type.Object({ accepted: Type.Integer() }));

export const postTraces = defineRoute({
  operationId: 'postTraces',
  method: 'POST',
  path: '/v1/traces',
  tag: 'traces',
  summary: 'Ship traces',
  description: 'Stored as sent, one row per batch (kept within retainRecords, retainBytes and retainSeconds), published to in-process listeners, answered 202.',
  body: { required: true, content: { 'application/json': TelemetryBatch } },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': TelemetryAccepted },
    },
    413: TooLarge,
  },
});

export const postLogs = defineRoute({
  operationId: 'postLogs',
  method: 'POST',
  path: '/v1/logs',
  tag: 'logs',
  summary: 'Ship logs',
  description: 'Stored as sent, one row per batch (kept within retainRecords, retainBytes and retainSeconds), published to in-process listeners, answered 202.',
  body: { required: true, content: { 'application/json': TelemetryBatch } },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': TelemetryAccepted },
    },
    413: TooLarge,
  },
});

export const telemetryRoutes = [postTraces, postLogs] as const;
