import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';

import { loadProfile, saveProfile } from '@/features/auth/auth-api';
import { AccountSection } from '@/features/auth/account-parts';
import { authErrorMessage } from '@/features/auth/auth-errors';
import { profileSchema } from '@/features/auth/auth.schema';
import { FormAlert, ServerErrorAlert, TextField, useAuthForm } from '@/features/auth/form-fields';
import { Button } from '@/ui/button';
import { Spinner } from '@/ui/spinner';

/**
 * Name, phone, age, address: the sign-up's rules (auth.schema.ts), checked again by the profile's
 * trigger (`internal.check_profile_text`, docs/database.md), whose refusal names the field.
 */
export function ProfileSection({ userId }: { userId: string }) {
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
    serverError,
    setServerError,
  } = useAuthForm(profileSchema, { fullName: '', phone: '', age: '', address: '' });

  useEffect(() => {
    let live = true;
    void loadProfile(userId).then((profile) => {
      if (!live) return;
      if (profile) reset(profile);
      setState(profile ? 'ready' : 'failed');
    });
    return () => {
      live = false;
    };
  }, [userId, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    setSaved(false);
    const result = await saveProfile(userId, values);
    if (result.ok) {
      setSaved(true);
      reset({ ...values, age: String(values.age) });
    } else setServerError(authErrorMessage('updateProfile', result.error));
  });

  return (
    <AccountSection id="profile" title={<Trans>Profil</Trans>}>
      {state === 'loading' && <Spinner />}
      {state === 'failed' && (
        <FormAlert kind="error">
          <Trans>Impossible de charger votre profil. Vérifiez la connexion puis réessayez.</Trans>
        </FormAlert>
      )}
      {state === 'ready' && (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <ServerErrorAlert messages={serverError} />
          {saved && (
            <FormAlert kind="success">
              <Trans>Profil enregistré.</Trans>
            </FormAlert>
          )}
          <TextField
            label={<Trans>Nom complet</Trans>}
            autoComplete="name"
            dir="auto"
            {...register('fullName')}
            error={errors.fullName?.message}
          />
          <TextField
            label={<Trans>Téléphone</Trans>}
            type="tel"
            autoComplete="tel"
            dir="ltr"
            hint={<Trans>Au format international, par exemple +213555123456.</Trans>}
            {...register('phone')}
            error={errors.phone?.message}
          />
          <TextField
            label={<Trans>Âge</Trans>}
            inputMode="numeric"
            {...register('age')}
            error={errors.age?.message}
          />
          <TextField
            label={<Trans>Adresse</Trans>}
            autoComplete="street-address"
            dir="auto"
            {...register('address')}
            error={errors.address?.message}
          />
          <Button type="submit" loading={isSubmitting} className="self-start">
            <Trans>Enregistrer le profil</Trans>
          </Button>
        </form>
      )}
    </AccountSection>
  );
}
