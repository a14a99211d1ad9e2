import { describe, expect, it } from 'vitest';

import {
  faqCategoryKeys,
  faqs,
  filterFaqs,
  normalizeForSearch,
  type FaqCategory,
} from '@/features/content/faq';

const items = [
  {
    id: 'a',
    category: 'payment' as FaqCategory,
    question: 'Qu’est-ce que la caution ?',
    answer: 'En espèces.',
  },
  {
    id: 'b',
    category: 'pickup' as FaqCategory,
    question: 'Livrez-vous à l’aéroport ?',
    answer: 'Oui, 24 h/24.',
  },
  {
    id: 'c',
    category: 'general' as FaqCategory,
    question: 'ما هو مبلغ الضمان؟',
    answer: 'نقدًا عند الاستلام.',
  },
];

describe('FAQ', () => {
  it('has the six categories and at least three questions in each', () => {
    expect(faqCategoryKeys).toEqual(['all', 'booking', 'payment', 'pickup', 'return', 'general']);
    for (const category of faqCategoryKeys.filter((c) => c !== 'all')) {
      expect(faqs.filter((f) => f.category === category).length, category).toBeGreaterThanOrEqual(
        3,
      );
    }
    expect(new Set(faqs.map((f) => f.id)).size).toBe(faqs.length);
  });

  it('filters by category', () => {
    expect(filterFaqs(items, '', 'all').map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(filterFaqs(items, '', 'pickup').map((i) => i.id)).toEqual(['b']);
  });

  it('searches question and answer, ignoring case, accents and word order', () => {
    expect(filterFaqs(items, 'AEROPORT', 'all').map((i) => i.id)).toEqual(['b']);
    expect(filterFaqs(items, 'especes caution', 'all').map((i) => i.id)).toEqual(['a']);
    expect(filterFaqs(items, 'caution aéroport', 'all')).toEqual([]);
    expect(filterFaqs(items, 'caution', 'pickup')).toEqual([]);
  });

  it('searches Arabic without diacritics or hamza variants', () => {
    expect(normalizeForSearch('نقدًا')).toBe('نقدا');
    expect(filterFaqs(items, 'نقدا', 'all').map((i) => i.id)).toEqual(['c']);
    expect(filterFaqs(items, 'الاستلام', 'all').map((i) => i.id)).toEqual(['c']);
  });
});
