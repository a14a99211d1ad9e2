import { zodResolver } from '@hookform/resolvers/zod';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import type * as z from 'zod/mini';

import { authFieldMessages, isAuthFieldMessageKey } from '@/features/auth/auth-messages';
import { cn } from '@/ui/cn';
import { ErrorIcon } from '@/ui/icons';

/** Translates a validation key from auth.schema.ts in the current language. */
export function useFieldError(message: string | undefined): string | undefined {
  const { i18n } = useLingui();
  if (!message) return undefined;
  return isAuthFieldMessageKey(message) ? i18n._(authFieldMessages[message]) : message;
}

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> & {
  label: ReactNode;
  /** The raw error (a validation key); shown translated under the field. */
  error?: string;
  hint?: ReactNode;
  /** Something inside the field at its end (the show-password button). */
  end?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({ label, error, hint, end, id, ref, ...input }: TextFieldProps) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const errorText = useFieldError(error);
  const describedBy =
    [errorText && `${inputId}-error`, hint && `${inputId}-hint`].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            'h-11 w-full rounded-lg border bg-surface px-3 text-base text-fg sm:text-sm',
            'placeholder:text-fg-muted focus-visible:outline-2 focus-visible:outline-ring',
            errorText ? 'border-danger' : 'border-line',
            end ? 'pe-12 max-[20rem]:pe-3' : undefined,
          )}
          {...input}
        />
        {/* Large text: the button goes below the field instead of over its text. */}
        {end && (
          <div className="absolute inset-y-0 end-0 flex items-center pe-1 max-[20rem]:static max-[20rem]:justify-end">
            {end}
          </div>
        )}
      </div>
      {hint && !errorText && (
        <p id={`${inputId}-hint`} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {errorText && (
        <p id={`${inputId}-error`} className="flex items-center gap-1 text-sm text-danger">
          <ErrorIcon size={16} />
          {errorText}
        </p>
      )}
    </div>
  );
}

/** A password field with a show/hide button. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'end'>) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      end={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          className="rounded-md px-2 py-1 text-xs font-medium text-primary-text hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        >
          {visible ? t`Masquer` : t`Afficher`}
        </button>
      }
    />
  );
}

/** A message above the form: an error of the server, or a success. */
export function FormAlert({
  kind,
  children,
}: {
  kind: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border px-4 py-3 text-sm',
        kind === 'error' && 'border-danger/40 bg-danger/10 text-danger',
        kind === 'success' && 'border-success/40 bg-success/10 text-success',
        kind === 'info' && 'border-line bg-muted text-fg',
      )}
    >
      {children}
    </div>
  );
}

/** The messages of the server's refusal, shown above the form; nothing while there is none. */
export function ServerErrorAlert({ messages }: { messages: readonly MessageDescriptor[] | null }) {
  const { i18n } = useLingui();
  if (!messages) return null;
  return <FormAlert kind="error">{messages.map((m) => i18n._(m)).join(' ')}</FormAlert>;
}

/**
 * The form of an auth page: validated by its zod schema once a field is left, with the server's
 * refusal of the last try (`serverError`).
 */
export function useAuthForm<Input extends FieldValues, Values>(
  schema: z.ZodMiniType<Values, Input>,
  defaultValues: DefaultValues<Input>,
) {
  const [serverError, setServerError] = useState<MessageDescriptor[] | null>(null);
  const form = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues,
  });
  return { ...form, serverError, setServerError };
}

/** The e-mail address field of the auth forms. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'>) {
  const { t } = useLingui();
  return (
    <TextField
      label={<Trans>Adresse e-mail</Trans>}
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder={t`vous@exemple.dz`}
      {...props}
    />
  );
}

type RegisteredField = UseFormRegisterReturn & { error?: string };

/** A new password with its rules, then the same again to confirm it. */
export function NewPasswordFields({
  label,
  password,
  confirmation,
}: {
  label: ReactNode;
  password: RegisteredField;
  confirmation: RegisteredField;
}) {
  return (
    <>
      <PasswordField
        label={label}
        autoComplete="new-password"
        hint={
          <Trans>
            Au moins 8 caractères, avec une majuscule, une minuscule, un chiffre et un caractère
            spécial.
          </Trans>
        }
        {...password}
      />
      <PasswordField
        label={<Trans>Confirmer le mot de passe</Trans>}
        autoComplete="new-password"
        {...confirmation}
      />
    </>
  );
}
