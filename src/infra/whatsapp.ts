import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/**
 * The agency's three WhatsApp lines (docs/product.md §1: reservation service, technical support, delivery
 * service), used by the floating contact button and the contacts page. Numbers are set at build
 * time (VITE_CONTACT_RESERVATION_PHONE, VITE_CONTACT_SUPPORT_PHONE, VITE_CONTACT_DELIVERY_PHONE,
 * international format); the defaults are the demo agency's.
 */
export type ContactLineKey = 'reservation' | 'support' | 'delivery';

export type ContactLine = {
  key: ContactLineKey;
  phone: string;
  title: MessageDescriptor;
  /** The chat's pre-filled first message, in the UI language. */
  message: MessageDescriptor;
};

function phoneFromEnv(name: string, fallback: string): string {
  const value = (import.meta.env as Partial<Record<string, string>>)[name]?.replace(/[\s.-]/g, '');
  return value && /^\+\d{8,15}$/.test(value) ? value : fallback;
}

export const CONTACT_LINES: readonly ContactLine[] = [
  {
    key: 'reservation',
    phone: phoneFromEnv('VITE_CONTACT_RESERVATION_PHONE', '+213560001010'),
    title: msg`Service réservation`,
    message: msg`Bonjour Kiraa, je souhaite réserver une voiture.`,
  },
  {
    key: 'support',
    phone: phoneFromEnv('VITE_CONTACT_SUPPORT_PHONE', '+213560002020'),
    title: msg`Support technique`,
    message: msg`Bonjour Kiraa, j’ai besoin d’aide avec l’application.`,
  },
  {
    key: 'delivery',
    phone: phoneFromEnv('VITE_CONTACT_DELIVERY_PHONE', '+213560003030'),
    title: msg`Service livraison`,
    message: msg`Bonjour Kiraa, j’ai une question sur la livraison de ma voiture.`,
  },
];

/** The wa.me link that opens a chat with `phone` and a pre-filled message. */
export function whatsappUrl(phone: string, text: string): string {
  const digits = phone.replace(/\D/g, '');
  const query = text ? `?text=${encodeURIComponent(text)}` : '';
  return `https://wa.me/${digits}${query}`;
}

/** A readable form of an international number: +213 560 00 10 10 for Algeria. */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const dz = /^213(\d{3})(\d{2})(\d{2})(\d{2})$/.exec(digits);
  if (dz) return `+213 ${dz[1]} ${dz[2]} ${dz[3]} ${dz[4]}`;
  return `+${digits}`;
}
