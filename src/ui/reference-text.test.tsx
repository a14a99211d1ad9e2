import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ReferenceText, TextWithReferences } from '@/ui/reference-text';

describe('ReferenceText', () => {
  afterEach(cleanup);

  it('keeps a reference on one line, left to right', () => {
    const { container } = render(<ReferenceText reference="KR-7K3M-9QXD" className="font-mono" />);
    const bdi = container.querySelector('bdi')!;
    expect(bdi.textContent).toBe('KR-7K3M-9QXD');
    expect(bdi.getAttribute('dir')).toBe('ltr');
    expect(bdi.className).toBe('whitespace-nowrap font-mono');
  });

  it('keeps every reference in a sentence whole and leaves the rest as it was', () => {
    const text = 'تم تأكيد حجزك KR-7K3M-9QXD. ثم KR-AAAA-0002، إلى اللقاء';
    const { container } = render(<TextWithReferences text={text} />);
    expect(container.textContent).toBe(text);
    expect([...container.querySelectorAll('bdi')].map((b) => b.textContent)).toEqual([
      'KR-7K3M-9QXD',
      'KR-AAAA-0002',
    ]);
  });

  it('adds nothing to a sentence without a reference', () => {
    const { container } = render(<TextWithReferences text="Une réservation précise la voiture." />);
    expect(container.innerHTML).toBe('Une réservation précise la voiture.');
  });
});
