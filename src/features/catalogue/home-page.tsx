import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { BRAND_NAME } from '@/domain/brand';
import { Button, buttonClass } from '@/ui/button';
import {
  CashIcon,
  ClockIcon,
  DriverIcon,
  IdIcon,
  PlaneIcon,
  RefundIcon,
  SearchIcon,
  SmileIcon,
  TagIcon,
} from '@/ui/icons';

import { FeaturedSkeleton } from '@/features/catalogue/featured-skeleton';
import { emptyFilters, filtersToParams } from '@/features/catalogue/filters';
import { inputClassName, RentalDates } from '@/features/catalogue/rental-dates';

// What needs the device's catalogue (IndexedDB, the sync) comes in a second chunk, right after
// the first paint: the hero, the claims and the testimonials show without it.
const FeaturedCars = lazy(() =>
  import('@/features/catalogue/home-live').then((m) => ({ default: m.FeaturedCars })),
);
const PlaceOptions = lazy(() =>
  import('@/features/catalogue/home-live').then((m) => ({ default: m.PlaceOptions })),
);

const claims: Array<{ icon: typeof ClockIcon; title: MessageDescriptor; text: MessageDescriptor }> =
  [
    {
      icon: ClockIcon,
      title: msg`Livraison 24h/24, 7j/7`,
      text: msg`Votre voiture vous attend où et quand vous le souhaitez, de jour comme de nuit.`,
    },
    {
      icon: PlaneIcon,
      title: msg`Prise en charge à l’aéroport`,
      text: msg`À votre arrivée à Alger, Oran, Constantine et dans les autres aéroports du pays.`,
    },
    {
      icon: DriverIcon,
      title: msg`Chauffeur en option`,
      text: msg`Un chauffeur expérimenté peut conduire pour vous, à la journée.`,
    },
    {
      icon: TagIcon,
      title: msg`Meilleur prix garanti`,
      text: msg`Des tarifs clairs à la journée, sans frais cachés : vous payez à la prise en charge.`,
    },
    {
      icon: RefundIcon,
      title: msg`Différence remboursée à 100 %`,
      text: msg`Vous trouvez moins cher ailleurs pour la même voiture ? Nous remboursons toute la différence.`,
    },
    {
      icon: SmileIcon,
      title: msg`Plus de 500 clients satisfaits`,
      text: msg`Voyageurs, familles et professionnels nous font confiance dans tout le pays.`,
    },
  ];

const testimonials: Array<{ name: string; place: MessageDescriptor; quote: MessageDescriptor }> = [
  {
    name: 'Yacine M.',
    place: msg`Paris → Alger`,
    quote: msg`J’ai réservé depuis l’avion, sans réseau. La voiture m’attendait à la sortie de l’aéroport d’Alger, propre et avec le plein.`,
  },
  {
    name: 'Amel B.',
    place: msg`Oran`,
    quote: msg`Un monospace pour toute la famille pendant l’Aïd, un prix honnête et une caution rendue le jour même.`,
  },
  {
    name: 'Karim T.',
    place: msg`Constantine`,
    quote: msg`Le chauffeur connaissait toutes les routes jusqu’à Djanet. Service sérieux, je recommande.`,
  },
];

/** /home: a light first screen — search, promises, featured cars, testimonials. */
export default function HomePage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const [search, setSearch] = useState({ start: '', end: '', pickup: '' });
  const placeId = useId();
  // The catalogue's chunk (Dexie) is asked for once the hero is painted, not before.
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer = 0;
    // The timeout queued from the frame's callback runs once that frame is on screen.
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = filtersToParams({ ...emptyFilters, ...search }).toString();
    navigate(query ? `/cars?${query}` : '/cars');
  }

  return (
    <div className="flex flex-col gap-12">
      <title>{`${BRAND_NAME} · ${t`Location de voitures en Algérie`}`}</title>
      <section className="grid grid-cols-[minmax(0,1fr)] gap-6 rounded-2xl bg-primary p-4 text-on-primary sm:p-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-center lg:p-10">
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold sm:text-4xl">
            <Trans>Louez une voiture partout en Algérie</Trans>
          </h1>
          <p className="text-lg">
            <Trans>
              Livrée à l’aéroport ou à votre porte, avec ou sans chauffeur. Parcourez le catalogue
              et réservez même sans connexion.
            </Trans>
          </p>
        </div>
        <form
          onSubmit={submit}
          aria-label={t`Rechercher une voiture`}
          className="flex flex-col gap-4 rounded-xl bg-surface p-4 text-fg shadow-lg"
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={placeId} className="text-sm font-medium">
              <Trans>Lieu de prise en charge</Trans>
            </label>
            <select
              id={placeId}
              name="pickup"
              value={search.pickup}
              onChange={(e) => setSearch((s) => ({ ...s, pickup: e.target.value }))}
              className={inputClassName}
            >
              <option value="">{t`Choisir plus tard`}</option>
              {painted && (
                <Suspense fallback={null}>
                  <PlaceOptions />
                </Suspense>
              )}
            </select>
          </div>
          <RentalDates
            start={search.start}
            end={search.end}
            onChange={(dates) => setSearch((s) => ({ ...s, ...dates }))}
          />
          <Button type="submit" size="lg">
            <SearchIcon size={18} />
            <Trans>Voir les voitures disponibles</Trans>
          </Button>
        </form>
      </section>

      <section aria-labelledby="home-claims">
        <h2 id="home-claims" className="mb-4 text-2xl font-bold">
          <Trans>Pourquoi louer avec {BRAND_NAME}</Trans>
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {claims.map(({ icon: Icon, title, text }) => (
            <li key={title.id} className="flex gap-3 rounded-xl border border-line bg-surface p-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-text">
                <Icon size={20} />
              </span>
              <div className="min-w-0">
                <h3 className="font-semibold">{i18n._(title)}</h3>
                <p className="text-sm text-fg-muted">{i18n._(text)}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="home-guarantee"
        className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5 sm:p-8"
      >
        <h2 id="home-guarantee" className="text-2xl font-bold">
          <Trans>Ce qu’il vous faut pour partir</Trans>
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          <li className="flex gap-3">
            <IdIcon size={24} className="text-primary-text" />
            <p>
              <Trans>
                <strong>Une pièce d’identité originale valide</strong> (carte d’identité ou
                passeport) et votre permis de conduire.
              </Trans>
            </p>
          </li>
          <li className="flex gap-3">
            <CashIcon size={24} className="text-primary-text" />
            <p>
              <Trans>
                <strong>Une caution en espèces</strong>, rendue intégralement au retour de la
                voiture. Vous payez la location à la prise en charge.
              </Trans>
            </p>
          </li>
        </ul>
      </section>

      <section aria-labelledby="home-featured" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="home-featured" className="text-2xl font-bold">
            <Trans>Nos voitures les mieux notées</Trans>
          </h2>
          <Link to="/cars" className={buttonClass({ variant: 'secondary' })}>
            <Trans>Voir toutes les voitures</Trans>
          </Link>
        </div>
        {painted ? (
          <Suspense fallback={<FeaturedSkeleton />}>
            <FeaturedCars />
          </Suspense>
        ) : (
          <FeaturedSkeleton />
        )}
      </section>

      <section aria-labelledby="home-testimonials" className="flex flex-col gap-4">
        <h2 id="home-testimonials" className="text-2xl font-bold">
          <Trans>Ils ont roulé avec nous</Trans>
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {testimonials.map(({ name, place, quote }) => (
            <li key={name} className="rounded-xl border border-line bg-surface p-5">
              <figure className="flex h-full flex-col gap-3">
                <blockquote className="flex-1 leading-relaxed">“{i18n._(quote)}”</blockquote>
                <figcaption className="text-sm">
                  <bdi className="font-semibold">{name}</bdi>
                  <span className="text-fg-muted"> · {i18n._(place)}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
