import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { leaseId } from './parameters.ts';
import { Conflict, NotFound } from './common.ts';

export const LeaseAcquireRequest = component(
  'LeaseAcquireRequest',
  Type.Object({
    name: Type.String({
      description: 'The name to claim.',
      minLength: 1,
      maxLength: 1024,
    }),
    holder: Type.Optional(
      Type.String({
        description: 'Who claims it (e.g. the instance id); reported to others as `holder`.',
        default: 'anonymous',
        maxLength: 1024,
      }),
    ),
    ttlSeconds: Type.Optional(
      Type.Number({
        description: 'Clamped into [leases.minTtlSeconds, leases.maxTtlSeconds]; default leases.defaultTtlSeconds.',
        minimum: 0,
      }),
    ),
  }),
);

export const LeaseAcquireResponse = component(
  'LeaseAcquireResponse',
  Type.Union([
    Type.Object(
      {
        acquired: Type.Literal(true),
        leaseId: Type.String({
          description: '`<fencingToken>-<random hex>`; address of renew and release.',
        }),
        expiresAt: Type.String({ format: 'date-time' }),
        fencingToken: Type.Integer({
          description: 'Increases with every grant on this server (across all names and restarts): a later holder always has a larger token.',
          minimum: 1,
        }),
        ttlSeconds: Type.Number({ description: 'The TTL after clamping.' }),
      },
      { title: 'granted' },
    ),
    Type.Object(
      {
        acquired: Type.Literal(false),
        holder: Type.String(),
        expiresAt: Type.String({
          description: 'When the current claim ends unless renewed.',
          format: 'date-time',
        }),
      },
      { title: 'not granted' },
    ),
  ]),
);

export const LeaseRenewRequest = component(
  'LeaseRenewRequest',
  Type.Object({
    ttlSeconds: Type.Optional(
      Type.Number({
        description: 'New TTL from now, clamped; default: the TTL of the grant.',
        minimum: 0,
      }),
    ),
  }),
);

export const acquireLease = defineRoute({
  operationId: 'acquireLease',
  method: 'POST',
  path: '/v1/leases/acquire',
  tag: 'leases',
  summary: 'Claim a name',
  description:
    "Never blocks. Not re-entrant: while a claim is live every acquire answers acquired:false, the holder's own included (the holder renews instead). A claim whose TTL passed is granted to the next caller.",
  body: {
    required: true,
    content: { 'application/json': LeaseAcquireRequest },
  },
  responses: {
    200: {
      description: 'Granted or not.',
      content: { 'application/json': LeaseAcquireResponse },
    },
  },
});

export const renewLease = defineRoute({
  operationId: 'renewLease',
  method: 'POST',
  path: '/v1/leases/{leaseId}/renew',
  tag: 'leases',
  summary: 'Extend a live claim',
  description:
    '404: no such claim (released, or taken over after expiry). 409 lease_expired: the TTL passed; an expired claim is never revived. Both mean: give the claim up.',
  parameters: [leaseId],
  body: { required: false, content: { 'application/json': LeaseRenewRequest } },
  responses: {
    204: { description: 'Extended.' },
    404: NotFound,
    409: Conflict,
  },
});

export const releaseLease = defineRoute({
  operationId: 'releaseLease',
  method: 'POST',
  path: '/v1/leases/{leaseId}/release',
  tag: 'leases',
  summary: 'Free a name',
  description: '404 when the claim is already gone (released or expired): success.',
  parameters: [leaseId],
  body: { required: false, description: 'Ignored; when sent, a JSON object.', content: { 'application/json': Type.Object({}) } },
  responses: { 204: { description: 'Released.' }, 404: NotFound },
});

export const leasesRoutes = [acquireLease, renewLease, releaseLease] as const;
