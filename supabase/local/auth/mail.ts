/**
 * The auth mails (password recovery, sign-up confirmation) in the reader's language: French (the
 * app's source language and the fallback), English or Arabic. The language is the `lang` of the
 * redirect URL the app sent, else the user's `user_metadata.locale`, else the request's
 * Accept-Language (docs/auth.md). GoTrue's templates have the same two parts: the link
 * (`{{ .ConfirmationURL }}`) and the code (`{{ .Token }}`, config.toml's otp_length digits). On a
 * hosted project these mails come from the `send-email` Edge Function (the Send Email hook).
 */
import type { Mail } from '../context.ts';

export type MailLocale = 'fr' | 'en' | 'ar';

/** The first of fr/en/ar the Accept-Language header prefers; French when none matches. */
export function pickLocale(acceptLanguage: string | undefined): MailLocale {
  if (!acceptLanguage) return 'fr';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const match = ranked.find(
    (entry) => entry.lang === 'fr' || entry.lang === 'en' || entry.lang === 'ar',
  );
  return (match?.lang as MailLocale | undefined) ?? 'fr';
}

const LOCALES: readonly MailLocale[] = ['fr', 'en', 'ar'];

/** The mail's language: `lang` of the redirect URL, the user's saved locale, Accept-Language. */
export function mailLocale(
  redirectTo: string | null,
  userMetadata: Record<string, unknown> | null,
  acceptLanguage: string | undefined,
): MailLocale {
  try {
    const lang = redirectTo ? new URL(redirectTo).searchParams.get('lang') : null;
    if (lang && (LOCALES as string[]).includes(lang)) return lang as MailLocale;
  } catch {
    // Not a URL: the next source decides.
  }
  const saved = userMetadata?.locale;
  if (typeof saved === 'string' && (LOCALES as string[]).includes(saved))
    return saved as MailLocale;
  return pickLocale(acceptLanguage);
}

function validity(locale: MailLocale, seconds: number): string {
  const hours = seconds % 3600 === 0 ? seconds / 3600 : null;
  const minutes = Math.max(1, Math.round(seconds / 60));
  switch (locale) {
    case 'fr':
      return hours ? `${hours} heure${hours > 1 ? 's' : ''}` : `${minutes} minutes`;
    case 'en':
      return hours ? `${hours} hour${hours > 1 ? 's' : ''}` : `${minutes} minutes`;
    case 'ar':
      return hours === 1 ? 'ساعة واحدة' : hours ? `${hours} ساعات` : `${minutes} دقيقة`;
  }
}

type Copy = {
  subject: string;
  greeting: (name: string | null) => string;
  intro: string;
  linkLine: (validFor: string) => string;
  button: string;
  codeLine: string;
  ignore: string;
};

const COPY: Record<MailLocale, Copy> = {
  fr: {
    subject: 'Kiraa : réinitialisation de votre mot de passe',
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    intro: 'Vous avez demandé à réinitialiser le mot de passe de votre compte Kiraa.',
    linkLine: (validFor) =>
      `Ouvrez ce lien pour choisir un nouveau mot de passe (valable ${validFor}, une seule fois) :`,
    button: 'Choisir un nouveau mot de passe',
    codeLine: "Ou saisissez ce code dans l'application :",
    ignore:
      "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
  },
  en: {
    subject: 'Kiraa: reset your password',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    intro: 'You asked to reset the password of your Kiraa account.',
    linkLine: (validFor) =>
      `Open this link to choose a new password (valid for ${validFor}, once):`,
    button: 'Choose a new password',
    codeLine: 'Or enter this code in the app:',
    ignore: 'If you did not ask for this, ignore this message: your password stays unchanged.',
  },
  ar: {
    subject: 'كراء: إعادة تعيين كلمة المرور',
    greeting: (name) => (name ? `مرحبًا ${name}،` : 'مرحبًا،'),
    intro: 'لقد طلبت إعادة تعيين كلمة مرور حسابك في كراء.',
    linkLine: (validFor) =>
      `افتح هذا الرابط لاختيار كلمة مرور جديدة (صالح لمدة ${validFor}، ولمرة واحدة فقط):`,
    button: 'اختيار كلمة مرور جديدة',
    codeLine: 'أو أدخل هذا الرمز في التطبيق:',
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: ستبقى كلمة مرورك كما هي.',
  },
};

const SIGNUP_COPY: Record<MailLocale, Copy> = {
  fr: {
    subject: 'Kiraa : confirmez votre adresse e-mail',
    greeting: COPY.fr.greeting,
    intro: 'Bienvenue sur Kiraa ! Confirmez votre adresse pour activer votre compte.',
    linkLine: (validFor) => `Ouvrez ce lien (valable ${validFor}, une seule fois) :`,
    button: 'Confirmer mon adresse',
    codeLine: "Ou saisissez ce code dans l'application :",
    ignore: "Si vous n'avez pas créé de compte Kiraa, ignorez ce message.",
  },
  en: {
    subject: 'Kiraa: confirm your email address',
    greeting: COPY.en.greeting,
    intro: 'Welcome to Kiraa! Confirm your address to activate your account.',
    linkLine: (validFor) => `Open this link (valid for ${validFor}, once):`,
    button: 'Confirm my address',
    codeLine: 'Or enter this code in the app:',
    ignore: 'If you did not create a Kiraa account, ignore this message.',
  },
  ar: {
    subject: 'كراء: أكّد عنوان بريدك الإلكتروني',
    greeting: COPY.ar.greeting,
    intro: 'مرحبًا بك في كراء! أكّد عنوانك لتفعيل حسابك.',
    linkLine: (validFor) => `افتح هذا الرابط (صالح لمدة ${validFor}، ولمرة واحدة فقط):`,
    button: 'تأكيد عنواني',
    codeLine: 'أو أدخل هذا الرمز في التطبيق:',
    ignore: 'إذا لم تنشئ حسابًا في كراء، فتجاهل هذه الرسالة.',
  },
};

const EMAIL_CHANGE_COPY: Record<MailLocale, Copy> = {
  fr: {
    subject: 'Kiraa : confirmez le changement d’adresse e-mail',
    greeting: COPY.fr.greeting,
    intro: 'Vous avez demandé à changer l’adresse e-mail de votre compte Kiraa.',
    linkLine: (validFor) =>
      `Ouvrez ce lien pour le confirmer (valable ${validFor}, une seule fois) :`,
    button: 'Confirmer le changement',
    codeLine: "Ou saisissez ce code dans l'application :",
    ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : rien ne change.",
  },
  en: {
    subject: 'Kiraa: confirm the change of email address',
    greeting: COPY.en.greeting,
    intro: 'You asked to change the email address of your Kiraa account.',
    linkLine: (validFor) => `Open this link to confirm it (valid for ${validFor}, once):`,
    button: 'Confirm the change',
    codeLine: 'Or enter this code in the app:',
    ignore: 'If you did not ask for this, ignore this message: nothing changes.',
  },
  ar: {
    subject: 'كراء: أكّد تغيير عنوان البريد الإلكتروني',
    greeting: COPY.ar.greeting,
    intro: 'لقد طلبت تغيير عنوان البريد الإلكتروني لحسابك في كراء.',
    linkLine: (validFor) => `افتح هذا الرابط للتأكيد (صالح لمدة ${validFor}، ولمرة واحدة فقط):`,
    button: 'تأكيد التغيير',
    codeLine: 'أو أدخل هذا الرمز في التطبيق:',
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: لن يتغير شيء.',
  },
};

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export type RecoveryMailInput = {
  to: string;
  name: string | null;
  link: string;
  code: string;
  validForSeconds: number;
  locale: MailLocale;
};

export type AuthMailAction = 'recovery' | 'signup' | 'email_change';

export function recoveryMail(input: RecoveryMailInput): Mail {
  return authMail('recovery', input);
}

export function authMail(action: AuthMailAction, input: RecoveryMailInput): Mail {
  const copies = { recovery: COPY, signup: SIGNUP_COPY, email_change: EMAIL_CHANGE_COPY };
  const copy = copies[action][input.locale];
  const validFor = validity(input.locale, input.validForSeconds);
  const text = [
    copy.greeting(input.name),
    '',
    copy.intro,
    copy.linkLine(validFor),
    input.link,
    '',
    `${copy.codeLine} ${input.code}`,
    '',
    copy.ignore,
    '',
    'Kiraa',
  ].join('\n');
  const dir = input.locale === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html>
<html lang="${input.locale}" dir="${dir}">
<body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${escapeHtml(copy.greeting(input.name))}</p>
<p>${escapeHtml(copy.intro)}<br>${escapeHtml(copy.linkLine(validFor))}</p>
<p><a href="${escapeHtml(input.link)}">${escapeHtml(copy.button)}</a></p>
<p>${escapeHtml(copy.codeLine)} <strong>${escapeHtml(input.code)}</strong></p>
<p>${escapeHtml(copy.ignore)}</p>
<p>Kiraa</p>
</body>
</html>`;
  return { to: input.to, subject: copy.subject, text, html };
}
