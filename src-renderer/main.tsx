import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { studio } from './api/studio-client.ts';
import { syncWithStudio } from './api/studio-sync.ts';
import { App } from './App.tsx';
import './styles.css';
import { applyTheme } from './shell/theme.ts';

applyTheme();
syncWithStudio(studio);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
