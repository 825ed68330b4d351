import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { leaderKey } from './parameters.ts';
import { NotFound } from './common.ts';

export const CampaignRequest = component(
  'CampaignRequest',
  Type.Object({
    candidate: Type.String({
      description: 'Identifies the caller (e.g. the instance id). The holder campaigning again extends its claim.',
      minLength: 1,
      maxLength: 1024,
    }),
    ttlSeconds: Type.Optional(
      Type.Number({
        description: 'Default leaderElection.leaseTtlSeconds; clamped into the lease bounds.',
        minimum: 0,
      }),
    ),
  }),
);

export const CampaignResponse = component(
  'CampaignResponse',
  Type.Union([
    Type.Object(
      {
        leader: Type.Literal(true),
        leaseId: Type.String({
          description: 'Stays the same while the same candidate keeps leading.',
        }),
        expiresAt: Type.String({ format: 'date-time' }),
        fencingToken: Type.Integer(),
        ttlSeconds: Type.Number(),
      },
      { title: 'leading' },
    ),
    Type.Object(
      {
        leader: Type.Literal(false),
        currentLeader: Type.String(),
        expiresAt: Type.String({ format: 'date-time' }),
      },
      { title: 'following' },
    ),
  ]),
);

export const ResignRequest = component(
  'ResignRequest',
  Type.Object(
    {
      leaseId: Type.Optional(Type.String()),
      candidate: Type.Optional(Type.String()),
    },
    {
      description: 'Names the claim by leaseId or by candidate; at least one is required (400 otherwise). When both are sent, leaseId decides.',
    },
  ),
);

export const campaign = defineRoute({
  operationId: 'campaign',
  method: 'POST',
  path: '/v1/leader/{key}/campaign',
  tag: 'leaderElection',
  summary: 'Claim or renew leadership',
  description: 'The holder campaigning again extends its claim and keeps its leaseId and fencing token.',
  parameters: [leaderKey],
  body: { required: true, content: { 'application/json': CampaignRequest } },
  responses: {
    200: {
      description: 'Leading or following.',
      content: { 'application/json': CampaignResponse },
    },
  },
});

export const resign = defineRoute({
  operationId: 'resign',
  method: 'POST',
  path: '/v1/leader/{key}/resign',
  tag: 'leaderElection',
  summary: 'Give leadership up',
  description: '404 (code not_leader) when the caller does not lead the key: success.',
  parameters: [leaderKey],
  body: { required: true, content: { 'application/json': ResignRequest } },
  responses: { 204: { description: 'Resigned.' }, 404: NotFound },
});

export const leaderRoutes = [campaign, resign] as const;
