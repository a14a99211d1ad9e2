import * as z from 'zod/mini';

import { LIMITS } from '@/domain/limits';
import { normalizePhone } from '@/domain/phone';

/**
 * The account forms' rules (docs/product.md §5). Each issue carries a stable key, never a sentence: the
 * screens translate the key with `authFieldMessages` (auth-messages.ts) in the current language,
 * so a language switch re-translates errors already on screen.
 */
export const MIN_AGE = LIMITS.ageMin;
export const MAX_AGE = LIMITS.ageMax;
export const PASSWORD_MIN = 8;
/** bcrypt (GoTrue's hash) reads at most 72 bytes (UTF-8: an Arabic letter takes two). */
export const PASSWORD_MAX = 72;
export const NAME_MAX = LIMITS.name;
export const EMAIL_MAX = LIMITS.email;
export const ADDRESS_MAX = LIMITS.address;
/** International format: `+`, then 8 to 15 digits, the first not 0 (docs/decisions.md). */
export const PHONE_PATTERN = /^\+[1-9]\d{7,14}$/;

export type AuthFieldMessageKey =
  | 'fullName.required'
  | 'fullName.max'
  | 'email.required'
  | 'email.invalid'
  | 'email.max'
  | 'phone.required'
  | 'phone.invalid'
  | 'age.required'
  | 'age.invalid'
  | 'age.min'
  | 'age.max'
  | 'address.required'
  | 'address.max'
  | 'password.required'
  | 'password.min'
  | 'password.max'
  | 'password.uppercase'
  | 'password.lowercase'
  | 'password.number'
  | 'password.special'
  | 'confirmPassword.required'
  | 'confirmPassword.mismatch';

const key = (error: AuthFieldMessageKey) => ({ error });

const email = z.pipe(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, key('email.required')),
      z.maxLength(EMAIL_MAX, key('email.max')),
    ),
  z.email(key('email.invalid')),
);

/**
 * GoTrue's symbols (`password_requirements = "lower_upper_letters_digits_symbols"`, docs/auth.md):
 * an accented letter or a space is not one, so the server would refuse what a looser rule let by.
 */
export const PASSWORD_SYMBOL = /[!@#$%^&*()_+\-=[\]{};'\\:"|<>?,./`~]/;

const utf8Length = (value: string) => new TextEncoder().encode(value).length;

/** A new password: the strength rules. (Signing in only asks that one is typed.) */
export const newPasswordSchema = z.string().check(
  z.minLength(1, key('password.required')),
  z.minLength(PASSWORD_MIN, key('password.min')),
  z.refine((v) => utf8Length(v) <= PASSWORD_MAX, key('password.max')),
  z.regex(/[A-Z]/, key('password.uppercase')),
  z.regex(/[a-z]/, key('password.lowercase')),
  z.regex(/\d/, key('password.number')),
  z.regex(PASSWORD_SYMBOL, key('password.special')),
);

type WithConfirmation = { password: string; confirmPassword: string };

/** The confirmation must match; checked even while other fields still have errors. */
function confirmationMatches<T extends z.ZodMiniType<WithConfirmation>>(schema: T) {
  return schema.check(
    z.refine<WithConfirmation>((v) => v.password === v.confirmPassword, {
      path: ['confirmPassword'],
      error: 'confirmPassword.mismatch' satisfies AuthFieldMessageKey,
      when: (payload) => {
        const v = payload.value as Partial<WithConfirmation> | undefined;
        return typeof v?.password === 'string' && typeof v.confirmPassword === 'string';
      },
    }),
  );
}

const confirmPassword = z.string().check(z.minLength(1, key('confirmPassword.required')));

export const signInSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, key('password.required'))),
});

/** The profile's fields (sign-up and the account page), checked in SQL too (docs/accounts.md). */
const profileFields = {
  fullName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, key('fullName.required')),
      z.maxLength(NAME_MAX, key('fullName.max')),
    ),
  phone: z.pipe(
    z.pipe(
      z.string().check(z.trim(), z.minLength(1, key('phone.required'))),
      // As people type it: "+213 555 12-34-56", "0555 12 34 56" (src/domain/phone.ts).
      z.transform((v: string) => normalizePhone(v) ?? v),
    ),
    z.string().check(z.regex(PHONE_PATTERN, key('phone.invalid'))),
  ),
  age: z.pipe(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.minLength(1, key('age.required')),
          z.regex(/^\d{1,3}$/, key('age.invalid')),
        ),
      z.transform(Number),
    ),
    z.number().check(z.gte(MIN_AGE, key('age.min')), z.lte(MAX_AGE, key('age.max'))),
  ),
  address: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, key('address.required')),
      z.maxLength(ADDRESS_MAX, key('address.max')),
    ),
};

export const signUpSchema = confirmationMatches(
  z.object({ ...profileFields, email, password: newPasswordSchema, confirmPassword }),
);

/** The account page's profile form (src/features/auth/account-profile.tsx). */
export const profileSchema = z.object(profileFields);

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = confirmationMatches(
  z.object({ password: newPasswordSchema, confirmPassword }),
);

export type SignInInput = z.input<typeof signInSchema>;
export type SignInValues = z.output<typeof signInSchema>;
export type SignUpInput = z.input<typeof signUpSchema>;
export type SignUpValues = z.output<typeof signUpSchema>;
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;
export type ForgotPasswordValues = z.output<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type ResetPasswordValues = z.output<typeof resetPasswordSchema>;
export type ProfileInput = z.input<typeof profileSchema>;
export type ProfileValues = z.output<typeof profileSchema>;

/** The user metadata a sign-up sends (docs/decisions.md: `{ name, phone, age, address }`). */
export function signUpMetadata(values: SignUpValues) {
  return { name: values.fullName, phone: values.phone, age: values.age, address: values.address };
}
