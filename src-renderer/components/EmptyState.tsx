import type { ReactNode } from 'react';

/** What a panel shows before it has anything: what will appear here and how to make it appear. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h3>{title}</h3>
      {children ? <p>{children}</p> : null}
    </div>
  );
}
