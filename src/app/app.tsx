import { createBrowserRouter, RouterProvider } from 'react-router-dom';

import { AppErrorBoundary } from '@/app/error-boundary';
import { routes } from '@/app/routes';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppErrorBoundary>
      <RouterProvider router={router} />
    </AppErrorBoundary>
  );
}
