import { describe, expect, it } from 'vitest';

import { systemNotification } from '@/features/notifications/push-notification';

const item = {
  type: 'booking_rejected',
  booking_id: 'b1',
  reference: 'KR-7K3M-9QXD',
  reason: 'Véhicule en maintenance',
  reason_code: null,
  notification_id: 'n1',
  url: '/mybookings?booking=b1',
};

describe('systemNotification', () => {
  it("says what the bell says, in the device's language, one per booking", () => {
    const fr = systemNotification(item, 'fr');
    expect(fr.title).toBe('Réservation refusée par l’agence');
    expect(fr.options.body).toBe(
      'Votre réservation KR-7K3M-9QXD a été refusée.\nMotif : Véhicule en maintenance',
    );
    expect(fr.options).toMatchObject({ tag: 'kiraa-booking-b1', lang: 'fr', dir: 'ltr' });
    expect(fr.options.data).toEqual({ url: '/mybookings?booking=b1', notificationId: 'n1' });

    const ar = systemNotification({ ...item, type: 'booking_accepted', reason: null }, 'ar');
    expect(ar.title).toBe('تم قبول الحجز');
    expect(ar.options.body).toBe('تم تأكيد حجزك KR-7K3M-9QXD. إلى اللقاء قريبًا!');
    expect(ar.options).toMatchObject({ lang: 'ar', dir: 'rtl' });

    expect(systemNotification(item, 'en').title).toBe('Booking declined by the agency');
  });

  it('reads an unknown language as French and an unknown type as a generic update', () => {
    const n = systemNotification({ ...item, type: 'something_new', reason: null }, 'xx');
    expect(n.title).toBe('Mise à jour de réservation');
    expect(n.options.body).toBe('Votre réservation KR-7K3M-9QXD a été mise à jour.');
  });
});
