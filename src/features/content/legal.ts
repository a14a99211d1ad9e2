import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

import { CONTACT_EMAIL } from '@/features/content/contact-info';

export type LegalSection = {
  id: string;
  title: MessageDescriptor;
  paragraphs: MessageDescriptor[];
};

/** When the legal texts last changed (ISO date, shown in the UI language). */
export const LEGAL_UPDATED_AT = '2026-11-22T12:00:00+01:00';

const email = CONTACT_EMAIL;

/** /privacy-policy: Kiraa's privacy policy under Algerian law 18-07. */
export const privacySections: readonly LegalSection[] = [
  {
    id: 'controller',
    title: msg`Qui sommes-nous ?`,
    paragraphs: [
      msg`Kiraa SARL, agence de location de voitures dont le siège est au 12, rue Didouche-Mourad, Alger-Centre, 16000 Alger, est responsable du traitement des données personnelles collectées par l’application Kiraa. Cette politique explique quelles données nous traitons, pourquoi, pendant combien de temps et comment exercer vos droits, conformément à la loi n° 18-07 du 10 juin 2018 relative à la protection des personnes physiques dans le traitement des données à caractère personnel.`,
    ],
  },
  {
    id: 'data',
    title: msg`Les données que nous collectons`,
    paragraphs: [
      msg`Pour un compte : votre nom complet, votre e-mail, votre numéro de téléphone, votre âge, votre adresse et votre mot de passe (conservé uniquement sous forme chiffrée).`,
      msg`Pour une réservation : la voiture, les dates et heures, les lieux de prise en charge et de restitution, les options choisies, vos demandes particulières, la copie de votre permis de conduire et, si vous venez de l’étranger, votre document de vol. Pour une réservation sans compte : vos nom, téléphone et e-mail.`,
      msg`À la prise en charge, nous consultons l’original de votre pièce d’identité et de votre permis pour établir le contrat de location. Nous ne collectons aucune donnée bancaire : le paiement se fait en espèces.`,
    ],
  },
  {
    id: 'purposes',
    title: msg`Pourquoi nous les utilisons`,
    paragraphs: [
      msg`Pour gérer votre compte et vos réservations (confirmation, livraison, prise en charge, restitution, annulation) ; vérifier que le conducteur est majeur et titulaire d’un permis valide ; vous informer de l’état de vos réservations (notifications dans l’application, e-mails) ; répondre à vos demandes d’assistance ; respecter nos obligations légales et comptables et, en cas de litige ou d’infraction, défendre nos droits.`,
      msg`Nous n’utilisons pas vos données à des fins publicitaires, nous ne les vendons pas et nous ne faisons aucun profilage.`,
    ],
  },
  {
    id: 'basis',
    title: msg`Sur quelle base`,
    paragraphs: [
      msg`Conformément à la loi n° 18-07, nous traitons vos données avec votre consentement, exprimé lors de la création de votre compte ou de votre réservation, et parce qu’elles sont nécessaires à l’exécution du contrat de location et au respect de nos obligations légales. Ce traitement a fait l’objet des formalités préalables prévues par la loi auprès de l’Autorité nationale de protection des données à caractère personnel (ANPDP).`,
    ],
  },
  {
    id: 'recipients',
    title: msg`Qui y a accès`,
    paragraphs: [
      msg`Seuls les membres de notre personnel qui en ont besoin (réservations, livraison, support) accèdent à vos données. Nos prestataires techniques (hébergement de l’application et de la base de données, envoi des e-mails) les traitent uniquement pour notre compte et selon nos instructions.`,
      msg`Vos données peuvent être communiquées aux autorités (police, gendarmerie, justice) lorsque la loi l’exige, par exemple en cas d’accident ou d’infraction routière, et à notre assureur en cas de sinistre.`,
    ],
  },
  {
    id: 'transfers',
    title: msg`Hébergement et transferts`,
    paragraphs: [
      msg`Si des données sont hébergées hors d’Algérie par nos prestataires, ce transfert n’a lieu que dans les conditions prévues par la loi n° 18-07, notamment avec l’autorisation de l’ANPDP et vers des pays assurant un niveau de protection suffisant.`,
    ],
  },
  {
    id: 'retention',
    title: msg`Combien de temps nous les gardons`,
    paragraphs: [
      msg`Compte : tant qu’il est actif, puis trois ans après votre dernière activité. Réservations et contrats : dix ans, comme les pièces comptables. Copies du permis et documents de vol : jusqu’à la fin de la location et au règlement d’un éventuel litige, puis un an au plus. Les fichiers joints à une réservation qui n’a jamais été enregistrée sont supprimés après 24 heures.`,
    ],
  },
  {
    id: 'device',
    title: msg`Les données enregistrées sur votre appareil`,
    paragraphs: [
      msg`Pour fonctionner hors ligne, l’application enregistre sur votre appareil le catalogue des voitures, vos réservations, celles faites en invité sur cet appareil, les envois en attente et votre session de connexion (dans IndexedDB), ainsi que votre langue et votre thème (dans le stockage local). Son service worker garde une copie de l’application et des photos des voitures.`,
      msg`Ces données servent uniquement au fonctionnement de l’application. La déconnexion efface vos notifications de l’appareil, et vous pouvez tout effacer depuis les réglages de votre navigateur. Nous n’utilisons ni cookies publicitaires ni outil de mesure d’audience tiers.`,
    ],
  },
  {
    id: 'rights',
    title: msg`Vos droits`,
    paragraphs: [
      msg`La loi n° 18-07 vous reconnaît un droit à l’information, un droit d’accès à vos données, un droit de rectification (mise à jour, correction ou effacement des données inexactes, incomplètes ou traitées illicitement) et un droit d’opposition au traitement pour des motifs légitimes, ainsi qu’à toute prospection.`,
      msg`Pour les exercer, écrivez-nous à ${email} ou sur WhatsApp (support technique) en précisant votre demande ; nous pouvons vous demander de justifier de votre identité. Si vous estimez que vos droits ne sont pas respectés, vous pouvez saisir l’ANPDP.`,
    ],
  },
  {
    id: 'security',
    title: msg`Sécurité`,
    paragraphs: [
      msg`Les échanges avec nos serveurs sont chiffrés (HTTPS). L’accès aux données est limité par des règles appliquées par la base de données elle-même : chaque client ne voit que ses propres réservations, et les documents déposés (permis, documents de vol) ne sont lisibles que par notre personnel. Les mots de passe ne sont jamais conservés en clair.`,
    ],
  },
  {
    id: 'minors',
    title: msg`Mineurs`,
    paragraphs: [
      msg`La location est réservée aux personnes âgées d’au moins 18 ans. Nous ne collectons pas sciemment de données concernant des mineurs.`,
    ],
  },
  {
    id: 'changes',
    title: msg`Modifications`,
    paragraphs: [
      msg`Nous pouvons mettre à jour cette politique ; la date de la dernière mise à jour figure en haut de la page. En cas de changement important, nous vous en informons dans l’application.`,
    ],
  },
];

/** /terms: the general rental conditions. */
export const termsSections: readonly LegalSection[] = [
  {
    id: 'scope',
    title: msg`Objet`,
    paragraphs: [
      msg`Les présentes conditions générales régissent la réservation et la location de voitures, avec ou sans chauffeur, auprès de Kiraa SARL (« Kiraa ») au moyen de l’application Kiraa. Réserver implique de les accepter. Le contrat de location signé à la prise en charge les complète.`,
    ],
  },
  {
    id: 'booking',
    title: msg`Réservation`,
    paragraphs: [
      msg`Une réservation précise la voiture, les dates et heures de prise en charge et de restitution (heure de l’Algérie, UTC+1), les lieux, l’option chauffeur, les services et les assurances choisis. Elle reçoit une référence unique, par exemple KR-7K3M-9QXD. Elle est d’abord « en attente » et devient ferme quand Kiraa l’accepte ; Kiraa peut la refuser en indiquant le motif, notamment si la voiture n’est plus disponible ou si les documents sont incomplets.`,
      msg`Une réservation faite sans connexion est enregistrée sur l’appareil et transmise dès le retour du réseau ; elle n’engage Kiraa qu’après sa réception. Si la voiture a été réservée entre-temps, la réservation est refusée et rien n’est dû.`,
      msg`La prise en charge doit avoir lieu dans le futur et la restitution après la prise en charge ; une location dure au plus 90 jours.`,
    ],
  },
  {
    id: 'driver',
    title: msg`Conducteur et documents`,
    paragraphs: [
      msg`Le conducteur doit avoir au moins 18 ans et être titulaire d’un permis de conduire en cours de validité. Une copie du permis est demandée à la réservation ; les originaux de la pièce d’identité et du permis sont présentés à la prise en charge. Seuls les conducteurs inscrits au contrat (le titulaire et, avec l’option « second conducteur », une deuxième personne) peuvent conduire. Les voyageurs venant de l’étranger fournissent leur document de vol.`,
    ],
  },
  {
    id: 'price',
    title: msg`Prix et paiement`,
    paragraphs: [
      msg`Les prix sont indiqués en dinars algériens (DZD), toutes taxes comprises. Le prix comprend le tarif journalier multiplié par le nombre de jours (toute période de 24 heures commencée est due), les services additionnels, les assurances optionnelles, le chauffeur le cas échéant et les frais de livraison des lieux choisis. Il s’affiche avant la confirmation et il est recalculé par nos serveurs : en cas d’écart, le prix confirmé par Kiraa s’applique.`,
      msg`Le paiement se fait en espèces, à la prise en charge.`,
    ],
  },
  {
    id: 'deposit',
    title: msg`Caution`,
    paragraphs: [
      msg`Une caution en espèces, dont le montant est indiqué pour chaque voiture, est remise à la prise en charge avec l’original d’une pièce d’identité. Elle est rendue en totalité au retour de la voiture, déduction faite, le cas échéant et sur justificatif, du carburant manquant, des dommages non couverts par les assurances souscrites et des jours de retard.`,
    ],
  },
  {
    id: 'cancellation',
    title: msg`Annulation`,
    paragraphs: [
      msg`Le client peut annuler sans frais une réservation en attente ou confirmée tant que la location n’a pas commencé, puisque rien n’est payé à l’avance. Kiraa peut annuler une réservation confirmée en cas de force majeure ou d’indisponibilité du véhicule ; elle en informe aussitôt le client et lui propose, dans la mesure du possible, un véhicule équivalent.`,
    ],
  },
  {
    id: 'use',
    title: msg`Utilisation du véhicule`,
    paragraphs: [
      msg`Le véhicule est utilisé avec prudence, dans le respect du code de la route, et uniquement sur le territoire algérien. Sont interdits : la sous-location, le transport rémunéré de personnes ou de marchandises, les compétitions et la conduite hors piste, le remorquage, la conduite sous l’emprise de l’alcool ou de stupéfiants et le fait de fumer à bord. Le client répond des amendes et des infractions commises pendant la location.`,
    ],
  },
  {
    id: 'pickup-return',
    title: msg`Prise en charge et restitution`,
    paragraphs: [
      msg`Un état des lieux contradictoire (carrosserie, intérieur, kilométrage, carburant) est dressé au départ et au retour. Le véhicule est rendu au lieu, à la date et à l’heure prévus, avec le même niveau de carburant, sauf option « plein d’essence ». Tout retard non convenu est facturé par période de 24 heures commencée. La livraison et la reprise à l’adresse ou à l’aéroport choisis sont assurées 24 h/24 et 7 j/7.`,
    ],
  },
  {
    id: 'insurance',
    title: msg`Assurances et sinistres`,
    paragraphs: [
      msg`La responsabilité civile est incluse dans toute location. Les protections optionnelles (collision, assistance dépannage, véhicule de remplacement selon disponibilité, bris de glace et phares, pneus) couvrent les dommages dans les limites indiquées au contrat. En cas d’accident, le client remplit un constat amiable, prévient Kiraa sans délai et, si nécessaire, les autorités. Les dommages non couverts restent à sa charge.`,
    ],
  },
  {
    id: 'best-price',
    title: msg`Garantie du meilleur prix`,
    paragraphs: [
      msg`Si, avant la prise en charge, le client trouve une offre moins chère pour un véhicule de même catégorie, aux mêmes dates et aux mêmes conditions, auprès d’une agence de location établie en Algérie, Kiraa lui rembourse 100 % de la différence sur présentation de l’offre.`,
    ],
  },
  {
    id: 'liability',
    title: msg`Responsabilité`,
    paragraphs: [
      msg`Kiraa fait le nécessaire pour que l’application reste disponible, y compris hors ligne, sans pouvoir garantir l’absence d’interruption. Kiraa n’est pas responsable des objets laissés dans le véhicule ni des retards dus à un cas de force majeure.`,
    ],
  },
  {
    id: 'personal-data',
    title: msg`Données personnelles`,
    paragraphs: [
      msg`Les données nécessaires à la location sont traitées conformément à notre politique de confidentialité et à la loi n° 18-07 du 10 juin 2018.`,
    ],
  },
  {
    id: 'law',
    title: msg`Droit applicable et litiges`,
    paragraphs: [
      msg`Les présentes conditions sont régies par le droit algérien. En cas de différend, le client et Kiraa recherchent d’abord une solution amiable ; à défaut, le litige est porté devant les juridictions compétentes d’Alger.`,
    ],
  },
];
