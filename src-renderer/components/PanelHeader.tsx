import type { ReactNode } from 'react';

export function PanelHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="panel-header">
      <h2 id="panel-title">{title}</h2>
      <div className="panel-actions">{children}</div>
    </header>
  );
}
