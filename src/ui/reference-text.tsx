import { Fragment } from 'react';
import { REFERENCE_PATTERN } from '@/domain/reference';
import { cn } from '@/ui/cn';

/**
 * A booking reference, KR-XXXX-XXXX: read out on the phone and copied whole, so it never wraps at
 * its hyphens (at 320 px it moves to the next line in one piece) and always reads left to right.
 */
export function ReferenceText({ reference, className }: { reference: string; className?: string }) {
  return (
    <bdi dir="ltr" className={cn('whitespace-nowrap', className)} data-reference-text="">
      {reference}
    </bdi>
  );
}

const IN_TEXT = new RegExp(`(${REFERENCE_PATTERN})`);

/** A sentence that may name booking references (a notification, a toast, the terms): each kept whole. */
export function TextWithReferences({ text }: { text: string }) {
  const parts = text.split(IN_TEXT);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <ReferenceText key={index} reference={part} />
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
