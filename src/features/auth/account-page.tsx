import { Trans } from '@lingui/react/macro';

import { AppearanceSection } from '@/features/auth/account-appearance';
import { EmailSection } from '@/features/auth/account-email';
import { PasswordSection } from '@/features/auth/account-password';
import { ProfileSection } from '@/features/auth/account-profile';
import { SecuritySection } from '@/features/auth/account-security';
import { useSession } from '@/infra/session';
import { PageSpinner } from '@/ui/spinner';

/**
 * /account, signed in (docs/accounts.md, "Account settings"): profile, appearance, password,
 * e-mail, security.
 */
export default function AccountPage() {
  const { user } = useSession();
  if (!user) return <PageSpinner />;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4" data-testid="account-page">
      <h1 className="text-2xl font-bold">
        <Trans>Mon compte</Trans>
      </h1>
      <ProfileSection userId={user.id} />
      <AppearanceSection />
      <PasswordSection />
      <EmailSection currentEmail={user.email} />
      <SecuritySection />
    </div>
  );
}
