import { BrowserRouter, useRoutes } from 'react-router-dom';

import { AppErrorBoundary } from '@/app/error-boundary';
import { routes } from '@/app/routes';
import { withLazyScreens } from '@/app/screens';
import { WorkerMessages } from '@/app/worker-messages';

const appRoutes = withLazyScreens(routes);

function AppRoutes() {
  return useRoutes(appRoutes);
}

export function App() {
  return (
    <AppErrorBoundary>
      <BrowserRouter>
        <WorkerMessages />
        <AppRoutes />
      </BrowserRouter>
    </AppErrorBoundary>
  );
}
