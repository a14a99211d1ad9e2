import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { firstScreenReady, page, preloadScreen, withLazyScreens } from '@/app/screens';
import { screenShown } from '@/infra/first-screen';

vi.mock('@/infra/first-screen', () => ({ screenShown: vi.fn() }));

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
  afterEach(cleanup);

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

  it('draws a screen’s frame at once on a first visit, and counts the screen shown after it', async () => {
    let arrive: (module: ReturnType<typeof screenModule>) => void = () => undefined;
    const load = vi.fn(
      () => new Promise<ReturnType<typeof screenModule>>((resolve) => (arrive = resolve)),
    );
    const Frame = () => <h1>Cadre</h1>;
    const routes: RouteObject[] = [
      { path: 'book', lazy: page('content', load, { frame: Frame }) },
      { path: 'qa', lazy: page('content', () => new Promise(() => undefined)) },
    ];
    // The first render does not wait for a framed screen's code; its download starts in the next
    // task, not in the shell's.
    await firstScreenReady(routes, '/book');
    expect(load).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(load).toHaveBeenCalledOnce();
    vi.mocked(screenShown).mockClear();
    renderAt(routes, '/book');
    expect(screen.getByRole('heading', { name: 'Cadre' })).toBeTruthy();
    expect(screen.queryByText('fallback')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20)); // effects have run
    expect(screenShown).not.toHaveBeenCalled();
    arrive(screenModule('Réserver'));
    expect(await screen.findByRole('heading', { name: 'Réserver' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Cadre' })).toBeNull();
    await waitFor(() => expect(screenShown).toHaveBeenCalledOnce());
    // A screen without a frame: the first render waits for it (here, for ever).
    const settled = vi.fn();
    void firstScreenReady(routes, '/qa').then(settled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).not.toHaveBeenCalled();
  });
});
