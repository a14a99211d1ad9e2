import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ToastViewport } from '@/app/toast-viewport';
import { activateLocale, i18n } from '@/infra/i18n';
import { dismissAllToasts, getToasts, showToast } from '@/infra/toast';

function renderViewport() {
  render(
    <I18nProvider i18n={i18n}>
      <ToastViewport />
    </I18nProvider>,
  );
}

describe('ToastViewport', () => {
  beforeEach(async () => {
    await activateLocale('fr');
    dismissAllToasts();
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows a toast in a live region and removes it after 5 s', () => {
    renderViewport();
    act(() => void showToast('Réservation enregistrée', { kind: 'success' }));
    const toast = screen.getByRole('status');
    expect(toast.textContent).toContain('Réservation enregistrée');
    expect(toast.closest('section')?.getAttribute('aria-live')).toBe('polite');
    expect(toast.closest('section')?.dataset.placement).toBe('bottom-center');
    act(() => void vi.advanceTimersByTime(4900));
    expect(screen.queryByRole('status')).not.toBeNull();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('announces errors as alerts and places the sign-in notice at the top for 3 s', () => {
    renderViewport();
    act(() => void showToast('Erreur', { kind: 'error' }));
    expect(screen.getByRole('alert').textContent).toContain('Erreur');
    act(
      () => void showToast('Veuillez vous connecter', { placement: 'top-center', duration: 3000 }),
    );
    const notice = screen.getByText('Veuillez vous connecter');
    expect(notice.closest('section')?.dataset.placement).toBe('top-center');
    act(() => void vi.advanceTimersByTime(3100));
    expect(screen.queryByText('Veuillez vous connecter')).toBeNull();
  });

  it('pauses while hovered, and runs the action then closes', () => {
    renderViewport();
    const onAction = vi.fn();
    act(() => void showToast('Nouvelle version', { action: { label: 'Recharger', onAction } }));
    fireEvent.pointerEnter(screen.getByRole('status'));
    act(() => void vi.advanceTimersByTime(10_000));
    expect(screen.queryByRole('status')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Recharger' }));
    expect(onAction).toHaveBeenCalledOnce();
    expect(getToasts()).toHaveLength(0);
  });

  it('keeps a valid list while toasts show: list items hold the live toasts (axe "list", "listitem")', async () => {
    vi.useRealTimers();
    renderViewport();
    act(() => void showToast('Bonjour', { duration: Infinity }));
    act(() => void showToast('Erreur', { kind: 'error', duration: Infinity }));
    const lists = document.querySelectorAll('ol');
    expect(lists).toHaveLength(2);
    for (const list of lists) {
      for (const child of list.children) {
        expect(child.tagName).toBe('LI');
        expect(child.getAttribute('role')).toBeNull();
      }
    }
    expect(screen.getByRole('status').closest('li')).not.toBeNull();
    expect(screen.getByRole('alert').closest('li')).not.toBeNull();
    const { default: axe } = await import('axe-core');
    const results = await axe.run(document.body, {
      runOnly: { type: 'rule', values: ['list', 'listitem', 'aria-allowed-role'] },
    });
    expect(results.violations.map((v) => v.id)).toEqual([]);
    expect(results.passes.map((v) => v.id)).toEqual(expect.arrayContaining(['list', 'listitem']));
  });

  it('can be closed with its close button', () => {
    renderViewport();
    act(() => void showToast('Bonjour', { duration: Infinity }));
    fireEvent.click(screen.getByRole('button', { name: 'Fermer la notification' }));
    expect(getToasts()).toHaveLength(0);
  });
});
