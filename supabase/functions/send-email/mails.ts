/**
 * The auth mails (GoTrue's Send Email hook) in the reader's language: French (the source and the
 * fallback), English or Arabic. The link and code are built as GoTrue builds them
 * (internal/mailer/templatemailer: `<api>/verify?token=<token hash>&type=<type>&redirect_to=…`).
 * No imports: the local auth service renders its mails with this file too
 * (supabase/local/auth/auth-mail.ts), so the dev mailbox shows what production sends.
 */

export type Locale = 'fr' | 'en' | 'ar';

export type EmailData = {
  token?: string;
  token_hash?: string;
  redirect_to?: string;
  email_action_type?: string;
  site_url?: string;
  token_new?: string;
  token_hash_new?: string;
  old_email?: string;
};

export type HookUser = {
  email?: string;
  new_email?: string | null;
  user_metadata?: Record<string, unknown> | null;
};

export type AuthMail = { to: string; subject: string; text: string; html: string };

/** `lang` of the redirect URL, else the user's `locale` metadata, else French. */
export function pickLocale(
  redirectTo: string | undefined,
  metadata: HookUser['user_metadata'],
): Locale {
  const known = (value: unknown): value is Locale =>
    value === 'fr' || value === 'en' || value === 'ar';
  try {
    const lang = redirectTo ? new URL(redirectTo).searchParams.get('lang') : null;
    if (known(lang)) return lang;
  } catch {
    // Not a URL: ignore it.
  }
  const locale = metadata?.locale;
  return known(locale) ? locale : 'fr';
}

/** Go's url.QueryEscape (GoTrue escapes a redirect URL only when it holds `&`, `=` or `#`). */
function goQueryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** GoTrue's verify link: `<site_url>/verify?token=…&type=…&redirect_to=…` on the auth API. */
export function verifyLink(
  siteUrl: string,
  tokenHash: string,
  type: string,
  redirectTo = '',
): string {
  let base = siteUrl.replace(/\/+$/, '');
  if (!/\/auth\/v1$/.test(base)) base += '/auth/v1';
  const redirect = /[&=#]/.test(redirectTo) ? goQueryEscape(redirectTo) : redirectTo;
  return `${base}/verify?token=${goQueryEscape(tokenHash)}&type=${goQueryEscape(type)}&redirect_to=${redirect}`;
}

function validity(locale: Locale, seconds: number): string {
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
  intro: string;
  /** The sentence before the link (with its validity); none for code-only mails. */
  linkLine?: (validFor: string) => string;
  button?: string;
  codeLine: string;
  ignore: string;
};

type Kind =
  | 'signup'
  | 'recovery'
  | 'magiclink'
  | 'invite'
  | 'email_change_new'
  | 'email_change_current'
  | 'reauthentication'
  | 'email';

/**
 * The greeting names nobody: an auth mail goes to any address someone typed (a sign-up, an
 * e-mail change), so it holds no text a requester chose, as guest mails to unconfirmed addresses
 * (docs/decisions.md, "Auth mails").
 */
const GREETING: Record<Locale, string> = {
  fr: 'Bonjour,',
  en: 'Hello,',
  ar: 'مرحبًا،',
};

const COPY: Record<Locale, Record<Kind, Copy>> = {
  fr: {
    signup: {
      subject: 'Kiraa : confirmez votre adresse e-mail',
      intro: 'Merci de votre inscription sur Kiraa.',
      linkLine: (v) =>
        `Ouvrez ce lien pour confirmer votre adresse (valable ${v}, une seule fois) :`,
      button: 'Confirmer mon adresse',
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore: "Si vous n'avez pas créé de compte Kiraa, ignorez ce message.",
    },
    recovery: {
      subject: 'Kiraa : réinitialisation de votre mot de passe',
      intro: 'Vous avez demandé à réinitialiser le mot de passe de votre compte Kiraa.',
      linkLine: (v) =>
        `Ouvrez ce lien pour choisir un nouveau mot de passe (valable ${v}, une seule fois) :`,
      button: 'Choisir un nouveau mot de passe',
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore:
        "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.",
    },
    magiclink: {
      subject: 'Kiraa : votre lien de connexion',
      intro: 'Vous avez demandé à vous connecter à Kiraa.',
      linkLine: (v) => `Ouvrez ce lien pour vous connecter (valable ${v}, une seule fois) :`,
      button: 'Me connecter',
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
    },
    invite: {
      subject: 'Kiraa : vous êtes invité',
      intro: 'Vous êtes invité à créer votre compte Kiraa.',
      linkLine: (v) => `Ouvrez ce lien pour accepter l'invitation (valable ${v}) :`,
      button: "Accepter l'invitation",
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore: "Si vous n'attendiez pas cette invitation, ignorez ce message.",
    },
    email_change_new: {
      subject: 'Kiraa : confirmez votre nouvelle adresse e-mail',
      intro: 'Vous avez demandé à utiliser cette adresse pour votre compte Kiraa.',
      linkLine: (v) => `Ouvrez ce lien pour la confirmer (valable ${v}, une seule fois) :`,
      button: 'Confirmer la nouvelle adresse',
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
    },
    email_change_current: {
      subject: "Kiraa : confirmez le changement d'adresse e-mail",
      intro: 'Vous avez demandé à remplacer cette adresse sur votre compte Kiraa.',
      linkLine: (v) =>
        `Ouvrez ce lien pour confirmer le changement (valable ${v}, une seule fois) :`,
      button: 'Confirmer le changement',
      codeLine: "Ou saisissez ce code dans l'application :",
      ignore:
        "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message et changez votre mot de passe.",
    },
    reauthentication: {
      subject: 'Kiraa : votre code de confirmation',
      intro: 'Confirmez votre identité pour continuer.',
      codeLine: 'Votre code :',
      ignore: "Si vous n'êtes pas à l'origine de cette demande, changez votre mot de passe.",
    },
    email: {
      subject: 'Kiraa : votre code de connexion',
      intro: 'Vous avez demandé à vous connecter à Kiraa.',
      codeLine: 'Votre code :',
      ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.",
    },
  },
  en: {
    signup: {
      subject: 'Kiraa: confirm your email address',
      intro: 'Thank you for signing up to Kiraa.',
      linkLine: (v) => `Open this link to confirm your address (valid for ${v}, once):`,
      button: 'Confirm my address',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not create a Kiraa account, ignore this message.',
    },
    recovery: {
      subject: 'Kiraa: reset your password',
      intro: 'You asked to reset the password of your Kiraa account.',
      linkLine: (v) => `Open this link to choose a new password (valid for ${v}, once):`,
      button: 'Choose a new password',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not ask for this, ignore this message: your password stays unchanged.',
    },
    magiclink: {
      subject: 'Kiraa: your sign-in link',
      intro: 'You asked to sign in to Kiraa.',
      linkLine: (v) => `Open this link to sign in (valid for ${v}, once):`,
      button: 'Sign in',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not ask for this, ignore this message.',
    },
    invite: {
      subject: 'Kiraa: you are invited',
      intro: 'You are invited to create your Kiraa account.',
      linkLine: (v) => `Open this link to accept the invitation (valid for ${v}):`,
      button: 'Accept the invitation',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not expect this invitation, ignore this message.',
    },
    email_change_new: {
      subject: 'Kiraa: confirm your new email address',
      intro: 'You asked to use this address for your Kiraa account.',
      linkLine: (v) => `Open this link to confirm it (valid for ${v}, once):`,
      button: 'Confirm the new address',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not ask for this, ignore this message.',
    },
    email_change_current: {
      subject: 'Kiraa: confirm the change of your email address',
      intro: 'You asked to replace this address on your Kiraa account.',
      linkLine: (v) => `Open this link to confirm the change (valid for ${v}, once):`,
      button: 'Confirm the change',
      codeLine: 'Or enter this code in the app:',
      ignore: 'If you did not ask for this, ignore this message and change your password.',
    },
    reauthentication: {
      subject: 'Kiraa: your confirmation code',
      intro: 'Confirm it is you to continue.',
      codeLine: 'Your code:',
      ignore: 'If you did not ask for this, change your password.',
    },
    email: {
      subject: 'Kiraa: your sign-in code',
      intro: 'You asked to sign in to Kiraa.',
      codeLine: 'Your code:',
      ignore: 'If you did not ask for this, ignore this message.',
    },
  },
  ar: {
    signup: {
      subject: 'كراء: أكّد عنوان بريدك الإلكتروني',
      intro: 'شكرًا لتسجيلك في كراء.',
      linkLine: (v) => `افتح هذا الرابط لتأكيد عنوانك (صالح لمدة ${v}، ولمرة واحدة فقط):`,
      button: 'تأكيد عنواني',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تنشئ حسابًا في كراء، فتجاهل هذه الرسالة.',
    },
    recovery: {
      subject: 'كراء: إعادة تعيين كلمة المرور',
      intro: 'لقد طلبت إعادة تعيين كلمة مرور حسابك في كراء.',
      linkLine: (v) => `افتح هذا الرابط لاختيار كلمة مرور جديدة (صالح لمدة ${v}، ولمرة واحدة فقط):`,
      button: 'اختيار كلمة مرور جديدة',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: ستبقى كلمة مرورك كما هي.',
    },
    magiclink: {
      subject: 'كراء: رابط تسجيل الدخول',
      intro: 'لقد طلبت تسجيل الدخول إلى كراء.',
      linkLine: (v) => `افتح هذا الرابط لتسجيل الدخول (صالح لمدة ${v}، ولمرة واحدة فقط):`,
      button: 'تسجيل الدخول',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة.',
    },
    invite: {
      subject: 'كراء: أنت مدعو',
      intro: 'أنت مدعو لإنشاء حسابك في كراء.',
      linkLine: (v) => `افتح هذا الرابط لقبول الدعوة (صالح لمدة ${v}):`,
      button: 'قبول الدعوة',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تكن تنتظر هذه الدعوة، فتجاهل هذه الرسالة.',
    },
    email_change_new: {
      subject: 'كراء: أكّد عنوان بريدك الإلكتروني الجديد',
      intro: 'لقد طلبت استخدام هذا العنوان لحسابك في كراء.',
      linkLine: (v) => `افتح هذا الرابط لتأكيده (صالح لمدة ${v}، ولمرة واحدة فقط):`,
      button: 'تأكيد العنوان الجديد',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة.',
    },
    email_change_current: {
      subject: 'كراء: أكّد تغيير عنوان بريدك الإلكتروني',
      intro: 'لقد طلبت استبدال هذا العنوان في حسابك في كراء.',
      linkLine: (v) => `افتح هذا الرابط لتأكيد التغيير (صالح لمدة ${v}، ولمرة واحدة فقط):`,
      button: 'تأكيد التغيير',
      codeLine: 'أو أدخل هذا الرمز في التطبيق:',
      ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة وغيّر كلمة مرورك.',
    },
    reauthentication: {
      subject: 'كراء: رمز التأكيد',
      intro: 'أكّد هويتك للمتابعة.',
      codeLine: 'رمزك:',
      ignore: 'إذا لم تطلب ذلك، فغيّر كلمة مرورك.',
    },
    email: {
      subject: 'كراء: رمز تسجيل الدخول',
      intro: 'لقد طلبت تسجيل الدخول إلى كراء.',
      codeLine: 'رمزك:',
      ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة.',
    },
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

function render(
  kind: Kind,
  locale: Locale,
  to: string,
  code: string,
  link: string | null,
  validForSeconds: number,
): AuthMail {
  const copy = COPY[locale][kind];
  const validFor = validity(locale, validForSeconds);
  const greeting = GREETING[locale];
  const withLink = link !== null && copy.linkLine !== undefined;
  const text = [
    greeting,
    '',
    copy.intro,
    ...(withLink ? [copy.linkLine!(validFor), link, ''] : ['']),
    `${copy.codeLine} ${code}`,
    '',
    copy.ignore,
    '',
    'Kiraa',
  ].join('\n');
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html>
<html lang="${locale}" dir="${dir}">
<body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(copy.intro)}${withLink ? `<br>${escapeHtml(copy.linkLine!(validFor))}` : ''}</p>
${withLink ? `<p><a href="${escapeHtml(link!)}">${escapeHtml(copy.button ?? link!)}</a></p>` : ''}
<p>${escapeHtml(copy.codeLine)} <strong>${escapeHtml(code)}</strong></p>
<p>${escapeHtml(copy.ignore)}</p>
<p>Kiraa</p>
</body>
</html>`;
  return { to, subject: copy.subject, text, html };
}

/** The action types whose mails this hook writes; others are refused (nothing is sent). */
export const SUPPORTED_TYPES = [
  'signup',
  'recovery',
  'magiclink',
  'invite',
  'email_change',
  'reauthentication',
  'email',
] as const;

/**
 * The mails GoTrue would send for this hook call. An e-mail change with secure change on goes to
 * both addresses; GoTrue then puts the new address's link hash in `token_hash` and the current
 * address's in `token_hash_new` (its documented swap), with codes `token_new` and `token`.
 */
export function authMails(
  user: HookUser,
  data: EmailData,
  validForSeconds: number,
): AuthMail[] | null {
  const type = data.email_action_type ?? '';
  if (!(SUPPORTED_TYPES as readonly string[]).includes(type)) return null;
  const locale = pickLocale(data.redirect_to, user.user_metadata);
  const site = data.site_url ?? '';
  const link = (hash: string | undefined) =>
    hash ? verifyLink(site, hash, type, data.redirect_to ?? '') : null;
  const email = user.email ?? '';

  if (type === 'email_change') {
    const mails: AuthMail[] = [];
    const secure = Boolean(data.token_hash_new);
    if (user.new_email) {
      const code = secure ? (data.token_new ?? '') : (data.token ?? '');
      mails.push(
        render(
          'email_change_new',
          locale,
          user.new_email,
          code,
          link(data.token_hash),
          validForSeconds,
        ),
      );
    }
    if (secure && email) {
      mails.push(
        render(
          'email_change_current',
          locale,
          email,
          data.token ?? '',
          link(data.token_hash_new),
          validForSeconds,
        ),
      );
    }
    return mails;
  }
  const kind = type as Exclude<Kind, 'email_change_new' | 'email_change_current'>;
  const withLink = kind !== 'reauthentication' && kind !== 'email';
  return [
    render(
      kind,
      locale,
      email,
      data.token ?? '',
      withLink ? link(data.token_hash) : null,
      validForSeconds,
    ),
  ];
}
