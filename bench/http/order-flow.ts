import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The benchmarked flow: POST /orders → set → the answer; every contender does exactly this. */
export const ORDERS_FLOW = `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  price:
    source: {type: http, path: /orders, methods: [POST]}
    steps:
      - set: {body: '{"id": body.id, "customer": body.customer, "total": body.price * body.qty}'}
`;

/** Writes the flow as an integration folder `<root>/bench/orders.yaml`; returns the folder. */
export function writeOrdersIntegration(root: string): string {
  const dir = join(root, 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'orders.yaml'), ORDERS_FLOW);
  return dir;
}
