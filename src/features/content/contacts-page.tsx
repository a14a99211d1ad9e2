import { Trans, useLingui } from '@lingui/react/macro';

import { CONTACT_LINES, formatPhone, whatsappUrl } from '@/infra/whatsapp';
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon, WhatsAppIcon } from '@/ui/icons';

import { agencies, CONTACT_EMAIL } from '@/features/content/contact-info';

/** /contacts: the three WhatsApp lines, the email, the agencies and their hours. */
export default function ContactsPage() {
  const { t, i18n } = useLingui();
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8">
      <title>{t`Contacts · Kiraa`}</title>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">
          <Trans>Contacts</Trans>
        </h1>
        <p className="text-fg-muted">
          <Trans>
            Une question, une réservation à modifier, une voiture à faire livrer ? Écrivez-nous sur
            WhatsApp : nous répondons 24 h/24 et 7 j/7, en français, en arabe et en anglais.
          </Trans>
        </p>
      </header>

      <section aria-labelledby="lines-title" className="flex flex-col gap-3">
        <h2 id="lines-title" className="text-xl font-semibold">
          <Trans>Nos lignes WhatsApp</Trans>
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {CONTACT_LINES.map((line) => {
            const title = i18n._(line.title);
            const phone = formatPhone(line.phone);
            return (
              <li
                key={line.key}
                className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
                data-line={line.key}
              >
                <p className="font-semibold">{title}</p>
                <p className="text-fg-muted">
                  <bdi dir="ltr">{phone}</bdi>
                </p>
                <div className="mt-auto flex flex-wrap gap-2">
                  <a
                    href={whatsappUrl(line.phone, i18n._(line.message))}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex h-10 items-center gap-2 rounded-lg bg-whatsapp px-3 text-sm font-medium text-white hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                  >
                    <WhatsAppIcon size={18} />
                    <Trans>WhatsApp</Trans>
                    <span className="sr-only">
                      <Trans>{title} (s’ouvre dans un nouvel onglet)</Trans>
                    </span>
                  </a>
                  <a
                    href={`tel:${line.phone}`}
                    className="inline-flex h-10 items-center gap-2 rounded-lg border border-line px-3 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <PhoneIcon size={18} />
                    <Trans>Appeler</Trans>
                    <span className="sr-only">{title}</span>
                  </a>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="hours-title" className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4">
          <h2 id="hours-title" className="flex items-center gap-2 text-lg font-semibold">
            <ClockIcon />
            <Trans>Horaires</Trans>
          </h2>
          <dl className="flex flex-col gap-2 text-fg-muted">
            <div>
              <dt className="font-medium text-fg">
                <Trans>WhatsApp et livraison</Trans>
              </dt>
              <dd>
                <Trans>24 h/24, 7 j/7, jours fériés compris</Trans>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-fg">
                <Trans>Agences</Trans>
              </dt>
              <dd>
                <Trans>Du samedi au jeudi, de 8 h à 19 h ; le vendredi, de 14 h à 19 h</Trans>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-fg">
                <Trans>Aéroports</Trans>
              </dt>
              <dd>
                <Trans>À l’heure de votre vol, sur réservation</Trans>
              </dd>
            </div>
          </dl>
          <p className="text-sm text-fg-muted">
            <Trans>Heure de l’Algérie (UTC+1).</Trans>
          </p>
        </div>
        <div className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4">
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            <MailIcon />
            <Trans>E-mail</Trans>
          </h2>
          <p className="text-fg-muted">
            <Trans>Pour les demandes écrites, les factures et vos données personnelles :</Trans>
          </p>
          <a href={`mailto:${CONTACT_EMAIL}`} className="font-medium text-primary-text underline">
            <bdi dir="ltr">{CONTACT_EMAIL}</bdi>
          </a>
        </div>
      </section>

      <section aria-labelledby="agencies-title" className="flex flex-col gap-3">
        <h2 id="agencies-title" className="text-xl font-semibold">
          <Trans>Nos agences</Trans>
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {agencies.map((agency) => (
            <li
              key={agency.key}
              className="flex flex-col gap-1 rounded-xl border border-line bg-surface p-4"
            >
              <p className="flex items-center gap-2 font-semibold">
                <MapPinIcon size={18} className="text-primary-text" />
                {i18n._(agency.name)}
              </p>
              <address className="text-fg-muted not-italic">{i18n._(agency.address)}</address>
            </li>
          ))}
        </ul>
        <p className="text-sm text-fg-muted">
          <Trans>
            Nous livrons aussi aux aéroports d’Alger, d’Oran et de Constantine, et à l’adresse de
            votre choix dans les villes desservies.
          </Trans>
        </p>
      </section>
    </div>
  );
}
