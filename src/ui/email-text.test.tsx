import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { EmailText } from '@/ui/email-text';

describe('EmailText', () => {
  afterEach(cleanup);

  it('lets a long address wrap only after its "@" and its dots', () => {
    const { container } = render(<EmailText email="guest-device-a-19ec0e06@kiraa.test" />);
    expect(container.textContent).toBe('guest-device-a-19ec0e06@kiraa.test');
    expect(container.innerHTML).toBe(
      '<bdi dir="ltr">guest-device-a-19ec0e06@<wbr>kiraa.<wbr>test</bdi>',
    );
  });
});
