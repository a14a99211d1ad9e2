import { Fragment } from 'react';

/**
 * An e-mail address that may wrap only after its "@" and its dots (a `<wbr>` there): at 320 px a
 * long address breaks where a reader expects, never in the middle of a name.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <bdi dir="ltr">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </bdi>
  );
}
