import { beforeAll, describe, expect, it } from 'vitest';

import { authFieldMessages } from '@/features/auth/auth-messages';
import {
  type AuthFieldMessageKey,
  forgotPasswordSchema,
  resetPasswordSchema,
  signInSchema,
  signUpMetadata,
  signUpSchema,
} from '@/features/auth/auth.schema';
import { type Locale } from '@/domain/locale';
import { activateLocale, i18n, loadFeatureCatalog } from '@/infra/i18n';

const valid = {
  fullName: 'Amina Benali',
  email: 'amina@example.dz',
  phone: '+213555123456',
  age: '30',
  address: '12 rue Didouche Mourad, Alger',
  password: 'Kiraa2026!',
  confirmPassword: 'Kiraa2026!',
};

/** The first issue's key for each field, as react-hook-form shows it. */
function firstErrors(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return errors;
}

function signUpErrors(patch: Partial<typeof valid>) {
  return firstErrors(signUpSchema.safeParse({ ...valid, ...patch }));
}

describe('sign-up schema', () => {
  it('accepts a valid form and normalises it', () => {
    const result = signUpSchema.safeParse({
      ...valid,
      fullName: '  Amina Benali ',
      email: ' amina@example.dz ',
      phone: '+213 555 12-34-56',
    });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      fullName: 'Amina Benali',
      email: 'amina@example.dz',
      phone: '+213555123456',
      age: 30,
    });
    expect(signUpMetadata(result.data!)).toEqual({
      name: 'Amina Benali',
      phone: '+213555123456',
      age: 30,
      address: '12 rue Didouche Mourad, Alger',
    });
  });

  it('requires every field', () => {
    expect(
      signUpErrors({
        fullName: ' ',
        email: '',
        phone: '',
        age: '',
        address: '',
        password: '',
        confirmPassword: '',
      }),
    ).toEqual({
      fullName: 'fullName.required',
      email: 'email.required',
      phone: 'phone.required',
      age: 'age.required',
      address: 'address.required',
      password: 'password.required',
      confirmPassword: 'confirmPassword.required',
    });
  });

  it('rejects invalid and too long emails', () => {
    for (const email of ['amina', 'amina@', '@example.dz', 'a b@example.dz']) {
      expect(signUpErrors({ email }).email).toBe('email.invalid');
    }
    expect(signUpErrors({ email: `${'a'.repeat(250)}@x.dz` }).email).toBe('email.max');
  });

  it('wants a phone number: international, or Algerian as people type it', () => {
    expect(signUpErrors({ phone: '055512345' }).phone).toBe('phone.invalid');
    expect(signUpErrors({ phone: '0555 12 34 56' }).phone).toBeUndefined();
    expect(signUpErrors({ phone: '+0555123456' }).phone).toBe('phone.invalid');
    expect(signUpErrors({ phone: '+2135551' }).phone).toBe('phone.invalid');
    expect(signUpErrors({ phone: '+2135551234567890' }).phone).toBe('phone.invalid');
    expect(signUpErrors({ phone: '+21355512345a' }).phone).toBe('phone.invalid');
    expect(signUpErrors({ phone: '+33612345678' }).phone).toBeUndefined();
    expect(signUpErrors({ phone: '+213 (555) 12 34 56' }).phone).toBeUndefined();
  });

  it('wants a valid age of at least 18', () => {
    expect(signUpErrors({ age: 'abc' }).age).toBe('age.invalid');
    expect(signUpErrors({ age: '17.5' }).age).toBe('age.invalid');
    expect(signUpErrors({ age: '-20' }).age).toBe('age.invalid');
    expect(signUpErrors({ age: '17' }).age).toBe('age.min');
    expect(signUpErrors({ age: '121' }).age).toBe('age.max');
    expect(signUpErrors({ age: '18' }).age).toBeUndefined();
  });

  it('rejects too long names and addresses', () => {
    expect(signUpErrors({ fullName: 'a'.repeat(101) }).fullName).toBe('fullName.max');
    expect(signUpErrors({ fullName: 'a'.repeat(100) }).fullName).toBeUndefined();
    expect(signUpErrors({ address: 'a'.repeat(201) }).address).toBe('address.max');
    expect(signUpErrors({ address: 'a'.repeat(200) }).address).toBeUndefined();
  });

  it('applies each password rule', () => {
    const rule = (password: string) =>
      signUpErrors({ password, confirmPassword: password }).password;
    expect(rule('Ab1!')).toBe('password.min');
    expect(rule('kiraa2026!')).toBe('password.uppercase');
    expect(rule('KIRAA2026!')).toBe('password.lowercase');
    expect(rule('Kiraaaaaa!')).toBe('password.number');
    expect(rule('Kiraa2026a')).toBe('password.special');
    expect(rule(`Aa1!${'a'.repeat(69)}`)).toBe('password.max');
    expect(rule('Kiraa2026!')).toBeUndefined();
    expect(rule('Kiraa2026~')).toBeUndefined();
  });

  it("counts as symbols only GoTrue's, and the length limit in bytes like bcrypt", () => {
    const rule = (password: string) =>
      signUpErrors({ password, confirmPassword: password }).password;
    // The server refuses these (docs/auth.md): a space or an accented letter is not a symbol.
    expect(rule('Kiraa 2026')).toBe('password.special');
    expect(rule('Kiraa2026é')).toBe('password.special');
    // 39 characters but 74 bytes: each Arabic letter takes two.
    expect(rule(`Aa1!${'ب'.repeat(35)}`)).toBe('password.max');
    expect(rule(`Aa1!${'ب'.repeat(34)}`)).toBeUndefined();
  });

  it('wants the confirmation to match, even while other fields are wrong', () => {
    expect(signUpErrors({ confirmPassword: 'Kiraa2026?' }).confirmPassword).toBe(
      'confirmPassword.mismatch',
    );
    expect(signUpErrors({ email: 'bad', confirmPassword: 'Kiraa2026?' }).confirmPassword).toBe(
      'confirmPassword.mismatch',
    );
  });
});

describe('the other forms', () => {
  it('sign-in needs an email and a password, without strength rules', () => {
    expect(firstErrors(signInSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'email.required',
      password: 'password.required',
    });
    expect(signInSchema.safeParse({ email: 'client@kiraa.dz', password: 'x' }).success).toBe(true);
    expect(firstErrors(signInSchema.safeParse({ email: 'client', password: 'x' })).email).toBe(
      'email.invalid',
    );
  });

  it('forgot-password needs a valid email', () => {
    expect(firstErrors(forgotPasswordSchema.safeParse({ email: 'nope' })).email).toBe(
      'email.invalid',
    );
    expect(forgotPasswordSchema.safeParse({ email: 'client@kiraa.dz' }).success).toBe(true);
  });

  it('reset-password applies the strength rules and the confirmation', () => {
    expect(
      firstErrors(resetPasswordSchema.safeParse({ password: 'short', confirmPassword: 'short' })),
    ).toEqual({ password: 'password.min' });
    expect(
      firstErrors(
        resetPasswordSchema.safeParse({ password: 'Kiraa2027!', confirmPassword: 'Kiraa2026!' }),
      ),
    ).toEqual({ confirmPassword: 'confirmPassword.mismatch' });
    expect(
      resetPasswordSchema.safeParse({ password: 'Kiraa2027!', confirmPassword: 'Kiraa2027!' })
        .success,
    ).toBe(true);
  });
});

describe('validation messages in each language', () => {
  const expected: Record<Locale, Partial<Record<AuthFieldMessageKey, string>>> = {
    fr: {
      'email.invalid': 'Veuillez saisir une adresse e-mail valide',
      'fullName.required': 'Le nom complet est requis',
      'age.min': 'Vous devez avoir au moins 18 ans',
      'confirmPassword.mismatch': 'Les mots de passe ne correspondent pas',
    },
    en: {
      'email.invalid': 'Please enter a valid email address',
      'fullName.required': 'Full name is required',
      'email.required': 'Email is required',
      'address.required': 'Full address is required',
      'age.min': 'You must be at least 18 years old',
      'password.min': 'Password must be at least 8 characters',
      'confirmPassword.mismatch': 'Passwords do not match',
    },
    ar: {
      'email.invalid': 'يرجى إدخال بريد إلكتروني صالح',
      'fullName.required': 'الاسم الكامل مطلوب',
      'age.min': 'يجب أن يكون عمرك 18 عامًا على الأقل',
      'confirmPassword.mismatch': 'كلمتا المرور غير متطابقتين',
    },
  };
  const french: Record<string, string> = {};

  beforeAll(async () => {
    await loadFeatureCatalog('auth');
    await activateLocale('fr');
    for (const [key, descriptor] of Object.entries(authFieldMessages)) {
      french[key] = i18n._(descriptor);
    }
  });

  for (const locale of ['fr', 'en', 'ar'] as const) {
    it(`translates every rule in ${locale}`, async () => {
      await activateLocale(locale);
      for (const [key, descriptor] of Object.entries(authFieldMessages)) {
        const text = i18n._(descriptor);
        expect(text, key).not.toBe('');
        expect(text, key).not.toBe(descriptor.id);
        // A complete catalog: English and Arabic never fall back to the French source.
        if (locale !== 'fr') expect(text, `${locale} ${key}`).not.toBe(french[key]);
      }
      for (const [key, text] of Object.entries(expected[locale])) {
        expect(i18n._(authFieldMessages[key as AuthFieldMessageKey])).toBe(text);
      }
    });
  }
});
