/** The featured cars' place while the device's catalogue is read (home page and home-live). */
export function FeaturedSkeleton() {
  return (
    <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="h-80 animate-pulse rounded-xl bg-muted" />
      ))}
    </ul>
  );
}
