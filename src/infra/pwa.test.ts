import { afterEach, describe, expect, it, vi } from 'vitest';

import { getInstallState, listenForInstallPrompt, promptInstall } from '@/infra/pwa';

function installPromptEvent(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
    prompt: () => Promise<void>;
    userChoice: Promise<{ outcome: string }>;
  };
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  return event;
}

describe('install prompt', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offers installing once the browser fires beforeinstallprompt, then hides the offer', async () => {
    const persist = vi.fn(async () => true);
    Object.defineProperty(navigator, 'storage', {
      configurable: true,
      value: { persisted: async () => false, persist },
    });
    listenForInstallPrompt();
    expect(getInstallState()).toEqual({ canInstall: false, installed: false });
    expect(await promptInstall()).toBe('unavailable');

    const event = installPromptEvent('accepted');
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(getInstallState()).toEqual({ canInstall: true, installed: false });

    expect(await promptInstall()).toBe('accepted');
    expect(event.prompt).toHaveBeenCalledOnce();
    expect(getInstallState()).toEqual({ canInstall: false, installed: true });

    // Installing asks the browser to keep the offline data.
    window.dispatchEvent(new Event('appinstalled'));
    await vi.waitFor(() => expect(persist).toHaveBeenCalled());
    Reflect.deleteProperty(navigator, 'storage');
  });
});
