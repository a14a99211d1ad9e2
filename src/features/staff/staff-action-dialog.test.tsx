import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { dismissAllToasts, getToasts } from '@/infra/toast';

import { StaffActionDialog } from '@/features/staff/staff-action-dialog';
import { setBookingStatus } from '@/features/staff/staff-api';
import { STAFF_ACTIONS, type StaffActionKind } from '@/features/staff/transitions';

vi.mock('@/features/staff/staff-api', () => ({ setBookingStatus: vi.fn() }));

const booking = { id: 'b1', reference: 'KR-7K3M-9QXD' };
const action = (kind: StaffActionKind) => STAFF_ACTIONS.find((a) => a.kind === kind)!;

function renderDialog(kind: StaffActionKind) {
  const onChanged = vi.fn();
  const onClose = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <StaffActionDialog
        booking={booking}
        action={action(kind)}
        open
        onClose={onClose}
        onChanged={onChanged}
      />
    </I18nProvider>,
  );
  return { onChanged, onClose, dialog: screen.getByRole('alertdialog') };
}

beforeEach(() => {
  i18n.load('fr', {});
  i18n.activate('fr');
  dismissAllToasts();
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('staff action confirmation', () => {
  it('refuses a rejection without a reason before asking the server', async () => {
    const { dialog, onChanged } = renderDialog('reject');
    expect(dialog.textContent).toContain('Refuser la réservation KR-7K3M-9QXD ?');
    fireEvent.change(within(dialog).getByLabelText('Motif (le client le verra)'), {
      target: { value: '   ' },
    });
    fireEvent.click(within(dialog).getByTestId('confirm-staff-action'));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Un motif est obligatoire.',
    );
    expect(setBookingStatus).not.toHaveBeenCalled();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('rejects with the reason, says so and reloads', async () => {
    vi.mocked(setBookingStatus).mockResolvedValue({ ok: true, data: {} as never });
    const { dialog, onChanged } = renderDialog('reject');
    const reason = within(dialog).getByLabelText('Motif (le client le verra)');
    fireEvent.change(reason, { target: { value: 'Permis illisible' } });
    expect(dialog.textContent).toContain('16 / 500 caractères');
    fireEvent.click(within(dialog).getByTestId('confirm-staff-action'));
    await waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(setBookingStatus).toHaveBeenCalledWith('b1', 'rejected', 'Permis illisible');
    expect(getToasts().map((t) => t.message)).toEqual(['Réservation KR-7K3M-9QXD refusée']);
  });

  it('accepts without a reason field', async () => {
    vi.mocked(setBookingStatus).mockResolvedValue({ ok: true, data: {} as never });
    const { dialog, onChanged } = renderDialog('accept');
    expect(within(dialog).queryByLabelText('Motif (le client le verra)')).toBeNull();
    expect(within(dialog).getByTestId('confirm-staff-action').textContent).toBe('Accepter');
    fireEvent.click(within(dialog).getByTestId('confirm-staff-action'));
    await waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(setBookingStatus).toHaveBeenCalledWith('b1', 'reserved', null);
  });

  it('translates the server’s refusal and reloads when the booking moved meanwhile', async () => {
    vi.mocked(setBookingStatus).mockResolvedValue({
      ok: false,
      code: 'invalid_status_transition',
      offline: false,
    });
    const { dialog, onChanged } = renderDialog('start');
    fireEvent.click(within(dialog).getByTestId('confirm-staff-action'));
    expect((await within(dialog).findByTestId('staff-action-error')).textContent).toBe(
      'Cette réservation ne peut plus changer d’état ainsi.',
    );
    expect(onChanged).toHaveBeenCalledOnce();
    expect(getToasts()).toEqual([]);
  });

  it('queues nothing when the server cannot be reached', async () => {
    vi.mocked(setBookingStatus).mockResolvedValue({ ok: false, code: 'network', offline: true });
    const { dialog, onChanged } = renderDialog('complete');
    fireEvent.click(within(dialog).getByTestId('confirm-staff-action'));
    expect((await within(dialog).findByTestId('staff-action-error')).textContent).toContain(
      'rien n’a été changé',
    );
    expect(onChanged).not.toHaveBeenCalled();
    expect(setBookingStatus).toHaveBeenCalledOnce();
  });
});
