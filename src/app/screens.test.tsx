import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';

import { page, preloadScreen, withLazyScreens } from '@/app/screens';

function screenModule(text: string) {
  return { default: () => <h1>{text}</h1> };
}

function renderAt(routes: RouteObject[], path: string) {
  const lazyRoutes = withLazyScreens(routes);
  function Routes() {
    return useRoutes(lazyRoutes);
  }
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Suspense fallback={<p>fallback</p>}>
        <Routes />
      </Suspense>
    </MemoryRouter>,
  );
}

describe('lazy screens', () => {
  it('loads a screen once, however often it is asked for', async () => {
    const load = vi.fn(() => Promise.resolve(screenModule('Voitures')));
    const lazyScreen = page('content', load);
    const [first, second] = await Promise.all([lazyScreen(), lazyScreen()]);
    await lazyScreen();
    expect(load).toHaveBeenCalledOnce();
    expect(first.Component).toBe(second.Component);
  });

  it('tries a screen that failed to load again next time', async () => {
    const load = vi
      .fn<() => Promise<ReturnType<typeof screenModule>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(screenModule('Voitures'));
    const lazyScreen = page('content', load);
    await expect(lazyScreen()).rejects.toThrow('Failed to fetch');
    await expect(lazyScreen()).resolves.toHaveProperty('Component');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('renders a preloaded first screen in the first commit, without the fallback', async () => {
    const routes: RouteObject[] = [
      { path: 'cars', lazy: page('content', () => Promise.resolve(screenModule('Voitures'))) },
      { path: 'qa', lazy: page('content', () => Promise.resolve(screenModule('Questions'))) },
    ];
    await preloadScreen(routes, '/cars');
    renderAt(routes, '/cars');
    // Synchronously: no fallback was committed, so no 300 ms reveal throttle either.
    expect(screen.queryByText('fallback')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Voitures' })).toBeTruthy();
  });

  it('shows the fallback for a screen that is not loaded yet, then the screen', async () => {
    const routes: RouteObject[] = [
      { path: 'qa', lazy: page('content', () => Promise.resolve(screenModule('Questions'))) },
    ];
    renderAt(routes, '/qa');
    expect(screen.getByText('fallback')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Questions' })).toBeTruthy();
  });

  it('never rejects when the first screen fails to load (the screen shows the error)', async () => {
    const routes: RouteObject[] = [
      { path: 'cars', lazy: page('content', () => Promise.reject(new Error('offline'))) },
    ];
    await expect(preloadScreen(routes, '/cars')).resolves.toBeUndefined();
    await expect(preloadScreen(routes, '/nowhere')).resolves.toBeUndefined();
  });
});
