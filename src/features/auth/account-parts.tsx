import { useId, type ReactNode } from 'react';

/** The mails' codes: 8 digits (config.toml `otp_length`), typed, never a link (docs/auth.md). */
export const MAIL_CODE_LENGTH = 8;

/** One section of the account page: a titled card, reachable by its anchor (`#id`). */
export function AccountSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  const titleId = `${id}-title`;
  return (
    <section
      id={id}
      aria-labelledby={titleId}
      data-testid={`account-${id}`}
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4 sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="text-sm text-fg-muted">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** A mailed code, typed: digits only, left to right in Arabic too. */
export function MailCodeField({
  label,
  value,
  onChange,
  testId,
  invalid,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        data-testid={testId}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={MAIL_CODE_LENGTH}
        dir="ltr"
        value={value}
        onChange={(event) =>
          onChange(event.target.value.replace(/\D/g, '').slice(0, MAIL_CODE_LENGTH))
        }
        aria-invalid={invalid ? true : undefined}
        className="h-11 w-full max-w-xs rounded-lg border border-line bg-surface px-3 text-center font-mono text-lg tracking-widest text-fg focus-visible:outline-2 focus-visible:outline-ring"
      />
    </div>
  );
}
