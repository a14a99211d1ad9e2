import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type * as FirstScreenModule from '@/infra/first-screen';

type FirstScreen = typeof FirstScreenModule;

/** A fresh copy of the module: its state is the page's, one per test. */
async function load(): Promise<FirstScreen> {
  vi.resetModules();
  return import('@/infra/first-screen');
}

/** Whether `promise` has settled once pending callbacks and a frame have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await act(() => vi.advanceTimersByTimeAsync(50));
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('afterFirstScreen', () => {
  it('waits for a screen to be shown, then for a frame', async () => {
    const { afterFirstScreen, screenShown } = await load();
    const waiting = afterFirstScreen();
    expect(await settled(waiting)).toBe(false);
    screenShown();
    expect(await settled(waiting)).toBe(true);
  });

  it('resolves at once (after a frame) when a screen is already shown', async () => {
    const { afterFirstScreen, screenShown } = await load();
    screenShown();
    expect(await settled(afterFirstScreen())).toBe(true);
  });

  it("waits while the screen's content is on its way", async () => {
    const { afterFirstScreen, screenShown, useScreenContent } = await load();
    function Screen({ ready }: { ready: boolean }) {
      useScreenContent(ready);
      return null;
    }
    const waiting = afterFirstScreen();
    const view = render(<Screen ready={false} />);
    screenShown();
    expect(await settled(waiting)).toBe(false);

    view.rerender(<Screen ready />);
    expect(await settled(waiting)).toBe(true);
  });

  it('stops waiting when a screen that held it goes away', async () => {
    const { afterFirstScreen, screenShown, useScreenContent } = await load();
    function Screen() {
      useScreenContent(false);
      return null;
    }
    const view = render(<Screen />);
    screenShown();
    const waiting = afterFirstScreen();
    expect(await settled(waiting)).toBe(false);
    view.unmount();
    expect(await settled(waiting)).toBe(true);
  });

  it('gives up waiting after its timeout (a background tab, content that never comes)', async () => {
    const { afterFirstScreen } = await load();
    const waiting = afterFirstScreen(1000);
    expect(await settled(waiting)).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await settled(waiting)).toBe(true);
  });
});
