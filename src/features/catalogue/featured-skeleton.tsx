import { CardsPlaceholder } from '@/features/catalogue/cards-placeholder';

/** The featured cars' place while the device's catalogue is read (home page and home-live). */
export function FeaturedSkeleton() {
  return (
    <CardsPlaceholder
      list="featured"
      count={3}
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
    />
  );
}
