/** The panels of the left rail, in order; their ids are what navigation stores. */
export const panels = [
  { id: 'flows', label: 'Flows' },
  { id: 'requests', label: 'Requests' },
  { id: 'traces', label: 'Traces' },
  { id: 'queues', label: 'Queues & Topics' },
  { id: 'storage', label: 'Storage' },
  { id: 'resources', label: 'Resources' },
  { id: 'secrets', label: 'Secrets' },
  { id: 'logs', label: 'Logs' },
  { id: 'tests', label: 'Tests' },
  { id: 'debugger', label: 'Debugger' },
] as const;

export type PanelId = (typeof panels)[number]['id'];
