import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

import { useOnline } from '@/infra/network';
import { Button } from '@/ui/button';

import { SecondFactorGate } from '@/features/staff/second-factor';
import {
  emptyInviteForm,
  inviteProblems,
  type InviteField,
  type InviteForm,
  type InviteOutcome,
  type InviteProblem,
} from '@/features/staff/staff-invite';
import { inviteStaff } from '@/features/staff/staff-invite-api';
import { OfflineNotice } from '@/features/staff/staff-notices';

const problemText: Record<InviteProblem, MessageDescriptor> = {
  required: msg`Champ obligatoire.`,
  invalid: msg`Valeur invalide.`,
  too_long: msg`Trop long.`,
};

const outcomeText: Record<Exclude<InviteOutcome, 'sent'>, MessageDescriptor> = {
  email_exists: msg`Un compte utilise déjà cette adresse : elle ne peut pas être invitée.`,
  second_factor: msg`Confirmez d’abord votre second facteur, puis réessayez.`,
  invalid_profile: msg`Le serveur refuse ces informations : vérifiez le nom, le téléphone, l’âge et l’adresse.`,
  offline: msg`Connexion impossible : personne n’a été invité. Réessayez une fois en ligne.`,
  failed: msg`L’invitation n’a pas pu être envoyée. Réessayez plus tard.`,
};

/* eslint-disable lingui/no-unlocalized-strings -- Tailwind classes, not copy */
const inputClass =
  'h-11 w-full min-w-0 rounded-lg border border-line bg-surface px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-ring aria-invalid:border-danger';
/* eslint-enable lingui/no-unlocalized-strings */

type FieldSpec = {
  field: InviteField;
  label: ReactNode;
  type?: string;
  autoComplete?: string;
  dir?: 'ltr' | 'auto';
  inputMode?: 'numeric';
};

function InviteFields({
  form,
  problems,
  onChange,
}: {
  form: InviteForm;
  problems: Partial<Record<InviteField, InviteProblem>>;
  onChange: (field: InviteField, value: string) => void;
}) {
  const { i18n } = useLingui();
  const base = useId();
  const specs: FieldSpec[] = [
    {
      field: 'email',
      label: <Trans>E-mail</Trans>,
      type: 'email',
      autoComplete: 'off',
      dir: 'ltr',
    },
    { field: 'name', label: <Trans>Nom complet</Trans>, autoComplete: 'off', dir: 'auto' },
    {
      field: 'phone',
      label: <Trans>Téléphone</Trans>,
      type: 'tel',
      autoComplete: 'off',
      dir: 'ltr',
    },
    { field: 'age', label: <Trans>Âge</Trans>, inputMode: 'numeric' },
    { field: 'address', label: <Trans>Adresse</Trans>, autoComplete: 'off', dir: 'auto' },
  ];
  return specs.map(({ field, label, ...input }) => {
    const id = `${base}-${field}`;
    const problem = problems[field];
    return (
      <div key={field} className="flex min-w-0 flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <input
          id={id}
          name={field}
          className={inputClass}
          value={form[field]}
          onChange={(event) => onChange(field, event.target.value)}
          {...input}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {})}
        />
        {problem && (
          <p id={`${id}-problem`} className="text-xs text-danger">
            {i18n._(problemText[problem])}
          </p>
        )}
      </div>
    );
  });
}

/** /staff/team — invite a new staff member by e-mail (docs/auth.md, "Staff invitations"). */
function StaffTeamScreen() {
  const { i18n, t } = useLingui();
  const online = useOnline();
  const [form, setForm] = useState<InviteForm>(emptyInviteForm);
  const [shown, setShown] = useState<Partial<Record<InviteField, InviteProblem>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: InviteOutcome; email: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = inviteProblems(form);
    setShown(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const kind = await inviteStaff(form);
    setBusy(false);
    setOutcome({ kind, email: form.email.trim().toLowerCase() });
    if (kind === 'sent') setForm(emptyInviteForm);
  }

  const invited = outcome?.email ?? '';
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4">
      <title>{t`Équipe · Personnel · Kiraa`}</title>
      <h1 className="text-2xl font-bold">
        <Trans>Inviter un membre de l’équipe</Trans>
      </h1>
      <p className="text-sm text-fg-muted">
        <Trans>
          La personne reçoit un e-mail avec un lien et un code, choisit son mot de passe puis active
          son second facteur avant d’accéder à l’espace équipe.
        </Trans>
      </p>
      {!online && <OfflineNotice />}
      {outcome &&
        (outcome.kind === 'sent' ? (
          <p role="status" className="rounded-lg border border-line p-3 text-sm">
            <Trans>Invitation envoyée à {invited}.</Trans>
          </p>
        ) : (
          <p role="alert" className="rounded-lg border border-danger p-3 text-sm text-danger">
            {i18n._(outcomeText[outcome.kind])}
          </p>
        ))}
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <InviteFields
          form={form}
          problems={shown}
          onChange={(field, value) => setForm((f) => ({ ...f, [field]: value }))}
        />
        <Button type="submit" loading={busy} disabled={!online} className="self-start">
          <Trans>Envoyer l’invitation</Trans>
        </Button>
      </form>
    </div>
  );
}

export default function StaffTeamPage() {
  return (
    <SecondFactorGate>
      <StaffTeamScreen />
    </SecondFactorGate>
  );
}
