import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Resolver } from 'react-hook-form';
import type * as z from 'zod/mini';

import type { BookingCatalogue } from '@/features/booking/booking-store';
import type { BookingDraft } from '@/features/booking/draft';
import type { ValidationMessages } from '@/features/booking/validation-messages';

/** What the wizard gives each form step: the draft, the catalogue and where the values go. */
export type StepProps = {
  draft: BookingDraft;
  catalogue: BookingCatalogue;
  messages: ValidationMessages;
  onChange: (values: Partial<BookingDraft>) => void;
  onNext: (values: Partial<BookingDraft>) => void;
  onBack: (values: Partial<BookingDraft>) => void;
};

/** How long typing pauses before the draft is saved. */
const SAVE_DELAY_MS = 250;

/**
 * A step's react-hook-form form, validated by the step's zod schema; every change is handed to
 * the wizard (`onChange`) shortly after typing pauses, and at once when the step goes away, so the
 * draft on the device is always current.
 */
export function useStepForm<T extends FieldValues>(
  schema: z.ZodMiniType<unknown, T>,
  defaultValues: T,
  onChange: (values: Partial<BookingDraft>) => void,
) {
  const form = useForm<T>({
    resolver: zodResolver(schema as never) as unknown as Resolver<T>,
    defaultValues: defaultValues as DefaultValues<T>,
    mode: 'onTouched',
  });
  const { subscribe } = form;
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let pending: Partial<BookingDraft> | null = null;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (pending) latest.current(pending);
      pending = null;
    };
    const unsubscribe = subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        pending = { ...(values as Partial<BookingDraft>) };
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, SAVE_DELAY_MS);
      },
    });
    return () => {
      unsubscribe();
      flush();
    };
  }, [subscribe]);

  return form;
}
