import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** The FAQ categories of docs/product.md §9, in order; 'all' shows every question. */
export const faqCategoryKeys = [
  'all',
  'booking',
  'payment',
  'pickup',
  'return',
  'general',
] as const;
export type FaqCategoryKey = (typeof faqCategoryKeys)[number];
export type FaqCategory = Exclude<FaqCategoryKey, 'all'>;

export const faqCategoryLabels: Record<FaqCategoryKey, MessageDescriptor> = {
  all: msg`Toutes`,
  booking: msg`Réservation`,
  payment: msg`Paiement`,
  pickup: msg`Prise en charge`,
  return: msg`Restitution`,
  general: msg`Général`,
};

export type Faq = {
  id: string;
  category: FaqCategory;
  question: MessageDescriptor;
  answer: MessageDescriptor;
};

export const faqs: readonly Faq[] = [
  // --- booking ---
  {
    id: 'how-to-book',
    category: 'booking',
    question: msg`Comment réserver une voiture ?`,
    answer: msg`Choisissez une voiture dans « Voitures », indiquez vos dates et heures, vos lieux de prise en charge et de restitution, ajoutez votre permis de conduire puis confirmez. Vous recevez aussitôt une référence de réservation (par exemple KR-7K3M-9QXD). Notre équipe vérifie ensuite la demande et vous confirme la réservation.`,
  },
  {
    id: 'guest-booking',
    category: 'booking',
    question: msg`Puis-je réserver sans créer de compte ?`,
    answer: msg`Oui. En tant qu’invité, indiquez votre nom, votre numéro de téléphone et votre e-mail. Notez bien votre référence de réservation : avec elle et votre e-mail ou votre téléphone, vous retrouvez votre réservation à tout moment dans « Trouver ma réservation ».`,
  },
  {
    id: 'offline-booking',
    category: 'booking',
    question: msg`Puis-je réserver sans connexion Internet ?`,
    answer: msg`Oui. Après une première visite (ou une fois l’application installée), le catalogue reste consultable hors ligne. Votre réservation est enregistrée sur votre téléphone avec sa référence et envoyée automatiquement dès le retour du réseau. Elle n’est confirmée qu’une fois reçue par nos services : si la voiture a été réservée entre-temps, l’application vous prévient et vous pouvez choisir une autre voiture ou d’autres dates.`,
  },
  {
    id: 'documents',
    category: 'booking',
    question: msg`Quels documents dois-je fournir ?`,
    answer: msg`À la réservation : une photo ou un PDF de votre permis de conduire en cours de validité (5 Mo au maximum). Si vous arrivez de l’étranger, ajoutez votre billet ou votre document de vol. Le jour de la prise en charge : l’original de votre pièce d’identité (carte nationale ou passeport) et l’original de votre permis.`,
  },
  {
    id: 'cancel',
    category: 'booking',
    question: msg`Puis-je annuler ma réservation ?`,
    answer: msg`Oui, tant qu’elle est en attente ou confirmée et que la location n’a pas commencé : depuis « Mes réservations » si vous avez un compte, ou en nous écrivant sur WhatsApp avec votre référence si vous avez réservé en invité. L’annulation est définitive. Comme rien n’est payé à l’avance, elle ne coûte rien.`,
  },
  // --- payment ---
  {
    id: 'how-to-pay',
    category: 'payment',
    question: msg`Comment se fait le paiement ?`,
    answer: msg`En espèces, en dinars algériens (DZD), au moment de la prise en charge de la voiture. Aucun paiement en ligne et aucune carte bancaire ne vous sont demandés.`,
  },
  {
    id: 'deposit',
    category: 'payment',
    question: msg`Qu’est-ce que la caution ?`,
    answer: msg`À la prise en charge, nous demandons une caution en espèces et l’original de votre pièce d’identité. Son montant dépend de la voiture : il est indiqué sur sa fiche et dans le récapitulatif de la réservation. La caution vous est rendue en totalité au retour de la voiture, si elle revient dans l’état et avec le niveau de carburant convenus.`,
  },
  {
    id: 'price',
    category: 'payment',
    question: msg`Comment le prix est-il calculé ?`,
    answer: msg`Le tarif journalier multiplié par le nombre de jours (chaque période de 24 heures commencée compte pour un jour), plus les services additionnels et les assurances choisis, le chauffeur si vous en prenez un, et les frais de livraison des lieux de prise en charge et de restitution. Le détail complet s’affiche avant que vous confirmiez.`,
  },
  {
    id: 'best-price',
    category: 'payment',
    question: msg`Qu’est-ce que la garantie du meilleur prix ?`,
    answer: msg`Si vous trouvez la même voiture, aux mêmes dates et aux mêmes conditions, moins chère auprès d’une autre agence en Algérie, envoyez-nous l’offre avant la prise en charge : nous vous remboursons 100 % de la différence.`,
  },
  // --- pickup ---
  {
    id: 'where',
    category: 'pickup',
    question: msg`Où puis-je récupérer la voiture ?`,
    answer: msg`Dans l’une de nos agences, à l’aéroport (Alger Houari-Boumediene, Oran Ahmed-Ben-Bella, Constantine Mohamed-Boudiaf…) ou livrée à l’adresse de votre choix dans les villes desservies. Les frais de livraison du lieu choisi apparaissent dans le prix.`,
  },
  {
    id: 'night-delivery',
    category: 'pickup',
    question: msg`Livrez-vous la nuit et le week-end ?`,
    answer: msg`Oui, nous livrons 24 h/24 et 7 j/7, y compris le vendredi et les jours fériés. Pour une arrivée à l’aéroport, indiquez votre numéro de vol dans les demandes particulières : nous suivons les retards et vous attendons à la sortie.`,
  },
  {
    id: 'driver',
    category: 'pickup',
    question: msg`Puis-je louer une voiture avec chauffeur ?`,
    answer: msg`Oui. Choisissez « chauffeur fourni » lors de la réservation : un chauffeur professionnel de l’agence conduit la voiture pendant toute la location. Il est facturé par jour et apparaît dans le récapitulatif du prix.`,
  },
  {
    id: 'at-pickup',
    category: 'pickup',
    question: msg`Comment se passe la prise en charge ?`,
    answer: msg`Nous faisons ensemble le tour de la voiture et notons son état et son niveau de carburant. Vous présentez l’original de votre pièce d’identité et de votre permis, vous réglez la location et la caution en espèces, puis vous partez avec les clés et le contrat.`,
  },
  // --- return ---
  {
    id: 'how-to-return',
    category: 'return',
    question: msg`Comment rendre la voiture ?`,
    answer: msg`Au lieu et à l’heure de restitution choisis lors de la réservation. Nous contrôlons l’état de la voiture et son niveau de carburant avec vous, puis nous vous rendons la caution.`,
  },
  {
    id: 'late-return',
    category: 'return',
    question: msg`Et si je rends la voiture en retard ?`,
    answer: msg`Chaque période de 24 heures commencée compte pour un jour de location. Prévenez-nous dès que possible sur WhatsApp : si la voiture n’est pas réservée après vous, nous prolongeons volontiers votre location.`,
  },
  {
    id: 'fuel',
    category: 'return',
    question: msg`Quelle est la règle pour le carburant ?`,
    answer: msg`La voiture doit revenir avec le niveau de carburant noté à la prise en charge ; sinon, le carburant manquant est facturé. Avec l’option « plein d’essence », elle vous est remise avec le plein et vous pouvez la rendre sans refaire le plein.`,
  },
  {
    id: 'other-city',
    category: 'return',
    question: msg`Puis-je rendre la voiture dans une autre ville ?`,
    answer: msg`Oui : choisissez un lieu de restitution différent lors de la réservation. Les frais de livraison de ce lieu s’ajoutent au prix et s’affichent avant la confirmation.`,
  },
  // --- general ---
  {
    id: 'insurance',
    category: 'general',
    question: msg`Quelles assurances sont incluses ?`,
    answer: msg`La responsabilité civile est toujours incluse. Vous pouvez y ajouter la protection collision, l’assistance dépannage, un véhicule de remplacement (selon disponibilité), la protection bris de glace et phares et la protection des pneus.`,
  },
  {
    id: 'breakdown',
    category: 'general',
    question: msg`Que faire en cas de panne ou d’accident ?`,
    answer: msg`Mettez-vous en sécurité et appelez les secours si nécessaire (Protection civile 14, Police 17, Gendarmerie 1055). Contactez ensuite notre support technique sur WhatsApp. En cas d’accident, remplissez un constat amiable. Avec l’assistance dépannage, le remorquage est pris en charge.`,
  },
  {
    id: 'offline-app',
    category: 'general',
    question: msg`L’application fonctionne-t-elle sans Internet ?`,
    answer: msg`Oui. Installez-la depuis votre navigateur (bouton « Installer » ou « Ajouter à l’écran d’accueil ») : le catalogue, vos réservations et ces pages restent disponibles hors ligne, et ce que vous faites sans réseau est envoyé dès qu’il revient.`,
  },
  {
    id: 'languages-time',
    category: 'general',
    question: msg`Dans quelles langues et à quelle heure ?`,
    answer: msg`L’application est disponible en français, en anglais et en arabe. Toutes les dates et heures sont celles de l’Algérie (UTC+1), quel que soit le fuseau horaire de votre téléphone.`,
  },
];

/** Lower case, without accents or Arabic diacritics (tashkeel), for forgiving search. */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه')
    .toLowerCase()
    .replace(/[’']/g, ' ');
}

/**
 * The entries whose question or answer contains every word of `query` (in any order), in the
 * given category. Texts are the translated ones, so search works in the UI language.
 */
export function filterFaqs<T extends { category: FaqCategory; question: string; answer: string }>(
  items: readonly T[],
  query: string,
  category: FaqCategoryKey,
): T[] {
  const words = normalizeForSearch(query).split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (category !== 'all' && item.category !== category) return false;
    if (!words.length) return true;
    const haystack = normalizeForSearch(`${item.question} ${item.answer}`);
    return words.every((word) => haystack.includes(word));
  });
}
